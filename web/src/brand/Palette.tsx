import { contrastRatio, coverTextColour, formatRatio, safeHex, wcagLevel } from './contrast.ts';
import type { Brand } from './types.ts';

/** A colour shown as a swatch only when it is a strict #rrggbb; anything else is named as refused, never styled. */
function Swatch({ colour }: { colour: unknown }) {
  const hex = safeHex(colour);
  if (!hex) return <span className="swatch swatch-refused">not a colour</span>;
  return <span className="swatch" style={{ backgroundColor: hex }} aria-hidden="true" />;
}

function Ratio({ a, b }: { a: unknown; b: unknown }) {
  const ratio = contrastRatio(String(a), String(b));
  if (ratio === null) return <span>n/a</span>;
  return (
    <span>
      {formatRatio(ratio)} <small>({wcagLevel(ratio)})</small>
    </span>
  );
}

const shown = (colour: unknown) => safeHex(colour) ?? 'not a #rrggbb colour';

/** The learned palette with contrast figures, and the colour pairs the covers are drawn with. */
export function Palette({ palette }: { palette: Brand['palette'] }) {
  const roles = [
    ['Primary', palette.primary],
    ['Accent', palette.accent],
    ['Background', palette.background],
    ['Text', palette.text],
  ] as const;
  const background = safeHex(palette.background);
  const title =
    background && safeHex(palette.text) ? coverTextColour(String(palette.text), background) : null;
  const pairs = [
    ['Title text', title],
    ['Primary shapes', palette.primary],
    ['Accent shapes', palette.accent],
  ] as const;
  return (
    <>
      <table className="palette">
        <caption>Colours</caption>
        <thead>
          <tr>
            <th scope="col">Swatch</th>
            <th scope="col">Colour</th>
            <th scope="col">Role</th>
            <th scope="col">On white</th>
            <th scope="col">On black</th>
          </tr>
        </thead>
        <tbody>
          {[
            ...roles.map(([role, hex]) => ({ key: role, hex, role })),
            ...palette.colors.map((colour, i) => ({
              key: `c${i}`,
              hex: colour.hex,
              role: `${colour.role ?? 'other'} (${colour.source})`,
            })),
          ].map((row) => (
            <tr key={row.key}>
              <td>
                <Swatch colour={row.hex} />
              </td>
              <td>
                <code>{shown(row.hex)}</code>
              </td>
              <td>{row.role}</td>
              <td>
                <Ratio a={row.hex} b="#ffffff" />
              </td>
              <td>
                <Ratio a={row.hex} b="#000000" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="palette">
        <caption>
          On the cover background <code>{shown(palette.background)}</code>
        </caption>
        <thead>
          <tr>
            <th scope="col">Swatch</th>
            <th scope="col">Used for</th>
            <th scope="col">Colour</th>
            <th scope="col">Contrast</th>
          </tr>
        </thead>
        <tbody>
          {pairs.map(([use, hex]) => (
            <tr key={use}>
              <td>
                <Swatch colour={hex} />
              </td>
              <td>{use}</td>
              <td>
                <code>{shown(hex)}</code>
              </td>
              <td>
                <Ratio a={hex} b={palette.background} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
