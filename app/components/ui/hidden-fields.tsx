import './kit'; // one chunk with the other small controls (kit.ts)
/** Hidden inputs for a form: a record, or name/value pairs (a name may repeat, e.g. from URLSearchParams). */
export function HiddenFields({ fields }: { fields: Record<string, string> | Iterable<[string, string]> }) {
  const entries = Symbol.iterator in fields ? [...(fields as Iterable<[string, string]>)] : Object.entries(fields);
  return (
    <>
      {entries.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
