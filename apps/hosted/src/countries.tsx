import { useEffect, useMemo, useState } from 'react';
import { COUNTRY_CODES } from './lib/checkout-schemas.ts';

/** Country names in the customer's language (the code itself where the browser has none). */
export const countryNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return undefined;
  }
})();

/** The name of a country code, for showing a saved address. */
export function countryName(code: string): string {
  return countryNames?.of(code) ?? code;
}

/** The country list the server accepts (ISO 3166, as checkout), by name in the customer's language. */
export function useCountries() {
  return useMemo(
    () =>
      COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
        a.name.localeCompare(b.name),
      ),
    [],
  );
}

/**
 * A required select of countries by name, its value the two-letter code; checkout and the address
 * book share it. Its message goes as soon as a country is chosen (as the form's fields do), so the
 * layout below it does not move when the shopper next presses a button.
 */
export function CountrySelect({
  id,
  name,
  defaultValue,
  errors,
}: {
  id: string;
  name: string;
  defaultValue: string;
  /** The form's messages by field name (a new object at each submit shows its message again). */
  errors: Record<string, string>;
}) {
  const countries = useCountries();
  const [shown, setShown] = useState(errors[name]);
  useEffect(() => setShown(errors[name]), [errors, name]);
  return (
    <div className="field">
      <label htmlFor={id}>Country</label>
      <select
        id={id}
        name={name}
        autoComplete="country"
        required
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : undefined}
        defaultValue={defaultValue}
        onChange={() => setShown(undefined)}
      >
        <option value="">Choose a country</option>
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </select>
      {shown ? (
        <span id={`${id}-error`} className="field-error">
          {shown}
        </span>
      ) : null}
    </div>
  );
}
