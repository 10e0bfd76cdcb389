/**
 * OpenAI's reasoning models (o1, o3, o4-mini and the gpt-5 family) accept no temperature: any value
 * but the default is answered with a 400. A provider prefix ("openai/o3" on a router) and a dated
 * or sized suffix ("o3-mini", "gpt-5-mini-2025-08-07") name the same family.
 */
const REFUSES_TEMPERATURE = [/^o1(?:-|$)/, /^o3(?:-|$)/, /^o4-mini(?:-|$)/, /^gpt-5(?:[-.]|$)/];

export function refusesTemperature(model: string): boolean {
  const name = model.toLowerCase().slice(model.lastIndexOf('/') + 1);
  return REFUSES_TEMPERATURE.some((family) => family.test(name));
}

/**
 * A 400 that names `temperature` as unsupported, as OpenAI words it ("Unsupported value:
 * 'temperature' does not support 0.7 with this model", "Unsupported parameter: 'temperature'")
 * and as compatible servers do.
 */
export function isTemperatureRejection(status: number | undefined, message: string): boolean {
  if (status !== 400 && status !== 422) return false;
  return (
    /\btemperature\b/i.test(message) &&
    /unsupported|not supported|does not support|unrecognized|unknown|not permitted|extra|only the default/i.test(
      message,
    )
  );
}
