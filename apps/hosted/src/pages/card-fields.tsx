import { MessageSlot } from '@commerce/ui';
import { useLayoutEffect, useRef, useState } from 'react';
import { TextField as AriaTextField, FieldError, Input, Label, Text } from 'react-aria-components';
import { useText } from '../i18n/index.ts';
import { cardBrand, caretAfterDigits, formatCardNumber, formatExpiry } from '../lib/card.ts';

const digitsIn = (text: string) => text.replace(/\D/g, '').length;

/**
 * A text field that formats what is typed as it is typed (the card number's groups, the expiry's
 * slash), the caret kept after the same digit. Built from React Aria's parts with the design
 * system's classes (as `@commerce/ui`'s `TextField`), because the number needs the brand beside the
 * input, which that field has no place for. Its message comes from the form's `validationErrors`.
 */
function FormattedField({
  name,
  label,
  autoComplete,
  format,
  autoFocus,
  adornment,
}: {
  name: string;
  label: string;
  autoComplete: string;
  format: (typed: string, deleting: boolean) => string;
  autoFocus?: boolean;
  /** Shown at the input's end and read as its description (the card's brand). */
  adornment?: (value: string) => string | undefined;
}) {
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (caret.current === undefined || !input.current) return;
    input.current.setSelectionRange(caret.current, caret.current);
    caret.current = undefined;
  });
  const shown = adornment?.(value);
  return (
    <AriaTextField
      name={name}
      value={value}
      isRequired
      autoFocus={autoFocus}
      autoComplete={autoComplete}
      inputMode="numeric"
      className="ui-field"
      onChange={(typed) => {
        const deleting = typed.length < value.length;
        const at = input.current?.selectionStart ?? typed.length;
        let digitsBefore = digitsIn(typed.slice(0, at));
        // Backspace over a space or the slash deletes the digit before it, as the shopper meant.
        const removed = value.charAt(at);
        if (digitsBefore > 0 && /\D/.test(removed) && value.slice(0, at) + value.slice(at + 1) === typed) {
          const digits = typed.replace(/\D/g, '');
          typed = digits.slice(0, digitsBefore - 1) + digits.slice(digitsBefore);
          digitsBefore -= 1;
        }
        const next = format(typed, deleting);
        // Typed in the middle: the caret stays after the same digit once the groups move.
        if (at < typed.length || deleting) caret.current = caretAfterDigits(next, digitsBefore);
        setValue(next);
      }}
    >
      <Label className="ui-label">{label}</Label>
      <div className="formatted-input">
        <Input ref={input} className="ui-input" />
        {adornment ? (
          <Text slot="description" className="card-brand">
            {shown ?? ''}
          </Text>
        ) : null}
      </div>
      <MessageSlot name={name}>
        <FieldError className="ui-error" />
      </MessageSlot>
    </AriaTextField>
  );
}

/** The card number, grouped as the card prints it, its brand (Visa, Mastercard, American Express…) beside it. */
export function CardNumberField({ autoFocus }: { autoFocus?: boolean }) {
  const t = useText();
  return (
    <FormattedField
      name="card.number"
      label={t('payment.cardNumber')}
      autoComplete="cc-number"
      format={(typed) => formatCardNumber(typed)}
      adornment={(value) => cardBrand(value)}
      {...(autoFocus ? { autoFocus } : {})}
    />
  );
}

/** The expiry, its slash added as the month is typed. */
export function ExpiryField() {
  const t = useText();
  return (
    <FormattedField
      name="card.expiry"
      label={t('payment.expiry')}
      autoComplete="cc-exp"
      format={formatExpiry}
    />
  );
}
