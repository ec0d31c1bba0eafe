/** The phone area code picker of the login and registration forms: `+852 HK` per upstream area. */
export function AreaCodeSelect({
  id,
  label,
  areas,
  defaultValue,
}: {
  id: string;
  label: string;
  areas: { id: number; code: string; global_code: string }[];
  defaultValue?: string | number;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name="area_id" defaultValue={defaultValue ?? areas[0]?.id}>
        {areas.map((a) => (
          <option key={a.id} value={a.id}>
            +{a.code} {a.global_code}
          </option>
        ))}
      </select>
    </div>
  );
}
