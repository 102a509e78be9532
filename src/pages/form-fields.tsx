/** The filter forms' fields: their names are the API's query parameters. */

/** A query parameter's value as the form shows it (empty when absent). */
export function text(raw: Record<string, unknown>, key: string): string {
  const value = raw[key];
  return typeof value === "string" ? value : "";
}

/** A labelled select whose options are [value, label] pairs; the query's value is selected. */
export function Select({
  name,
  label,
  options,
  raw,
}: {
  name: string;
  label: string;
  options: ReadonlyArray<readonly [string, string]>;
  raw: Record<string, unknown>;
}) {
  const current = text(raw, name);
  return (
    <div class="field">
      <label for={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name}>
        {options.map(([value, shown]) => (
          <option key={value} value={value} selected={value === current}>
            {shown}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled text field holding the query's value. */
export function Input({
  name,
  label,
  raw,
  type = "text",
}: {
  name: string;
  label: string;
  raw: Record<string, unknown>;
  type?: string;
}) {
  return (
    <div class="field">
      <label for={`f-${name}`}>{label}</label>
      <input
        id={`f-${name}`}
        name={name}
        type={type}
        value={text(raw, name)}
        inputMode={type === "text" ? undefined : "decimal"}
      />
    </div>
  );
}

export const ANY = ["", "any"] as const;
export const YES_NO = [ANY, ["true", "yes"], ["false", "no"]] as const;
