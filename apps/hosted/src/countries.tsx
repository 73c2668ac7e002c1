import { useEffect, useMemo, useState } from 'react';
import { currentLocale, useLocale, useText } from './i18n/index.ts';
import { COUNTRY_CODES } from './lib/checkout-schemas.ts';

/**
 * Country names come from Intl (`Intl.DisplayNames`) in the store's language, not from a list of
 * ours: every language the browser knows has them, so a translation of the pages needs none.
 */
const displayNames = new Map<string, Intl.DisplayNames | undefined>();

function namesIn(locale: string): Intl.DisplayNames | undefined {
  if (!displayNames.has(locale)) {
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames(locale, { type: 'region' });
    } catch {
      names = undefined;
    }
    displayNames.set(locale, names);
  }
  return displayNames.get(locale);
}

/** The name of a country code in the store's language (the code itself where Intl has none). */
export function countryName(code: string): string {
  try {
    return namesIn(currentLocale())?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The country list the server accepts (ISO 3166, as checkout), by name in the store's language. */
export function useCountries() {
  const locale = useLocale();
  return useMemo(() => {
    const collator = new Intl.Collator(locale);
    return COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
      collator.compare(a.name, b.name),
    );
  }, [locale]);
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
  const t = useText();
  const [shown, setShown] = useState(errors[name]);
  useEffect(() => setShown(errors[name]), [errors, name]);
  return (
    <div className="field">
      <label htmlFor={id}>{t('country.label')}</label>
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
        <option value="">{t('country.choose')}</option>
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
