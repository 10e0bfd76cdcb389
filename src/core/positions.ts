/**
 * Log positions and stream revisions are bigint everywhere. Where they are stored or sent as text
 * they are zero-padded to 20 digits so that text order equals numeric order.
 */
export const POSITION_WIDTH = 20;

export const positionToText = (position: bigint): string =>
  position.toString().padStart(POSITION_WIDTH, '0');

export const positionFromText = (text: string): bigint => BigInt(text);
