/** Cover images for articles: 1200×630 PNG (the Open Graph size), composed from the brand's palette. */
export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 630;

/** Hex colours learned from the site. */
export type CoverPalette = { primary: string; accent: string; background: string; text: string };

/** Free-form words from the brand profile, e.g. `{ mood: 'calm', shapes: 'waves' }`. */
export type CoverStyle = { mood?: string; shapes?: string };

export type CoverRequest = {
  title: string;
  palette: CoverPalette;
  style?: CoverStyle;
  brandName?: string;
};

/** `textMode` says whether the title was set in a font or drawn as paths (no font on the machine). */
export type CoverImage = {
  png: Buffer;
  svg: string;
  width: number;
  height: number;
  textMode: TextMode;
};

export type TextMode = 'font' | 'paths';

export interface CoverGenerator {
  generate(request: CoverRequest): Promise<CoverImage>;
}
