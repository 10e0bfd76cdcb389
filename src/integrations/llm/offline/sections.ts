/** A markdown body as its introduction and its `##` sections, for edits that work section by section. */
export type Section = { heading: string; content: string };
export type SectionedBody = { intro: string; sections: Section[] };

export function splitSections(body: string): SectionedBody {
  const parts = body.replace(/\r\n/g, '\n').split(/^## +(.+)$/m);
  const sections: Section[] = [];
  for (let i = 1; i < parts.length; i += 2)
    sections.push({ heading: parts[i].trim(), content: parts[i + 1].trim() });
  return { intro: parts[0].trim(), sections };
}

export function joinSections({ intro, sections }: SectionedBody): string {
  const blocks = [
    intro,
    ...sections.map((section) => `## ${section.heading}\n\n${section.content}`.trim()),
  ].filter(Boolean);
  return `${blocks.join('\n\n')}\n`;
}

/** Paragraph blocks of a section (lists, headings and code stay whole blocks). */
export const blocks = (content: string): string[] =>
  content
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean);

export const isProseBlock = (block: string): boolean => !/^(#|[-*] |\d+\. |>|\||```|<)/.test(block);

/** Where closing material starts, so added sections land before the conclusion. */
export const closingIndex = (sections: readonly Section[]): number => {
  const index = sections.findIndex((section) =>
    /conclusion|takeaways|summary|final thoughts|wrapping up|next steps|further reading/i.test(
      section.heading,
    ),
  );
  return index === -1 ? sections.length : index;
};
