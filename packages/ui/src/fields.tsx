import { type ReactNode, useId } from 'react';
import {
  Checkbox as AriaCheckbox,
  type CheckboxProps as AriaCheckboxProps,
  Radio as AriaRadio,
  RadioGroup as AriaRadioGroup,
  type RadioGroupProps as AriaRadioGroupProps,
  Select as AriaSelect,
  type SelectProps as AriaSelectProps,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  Button,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
  Text,
  TextArea,
} from 'react-aria-components';
import { MessageSlot } from './form.tsx';

/** What every field shows besides its control: a label, an optional hint, an optional message. */
interface FieldText {
  label: ReactNode;
  /** A hint under the label (format, why it is asked). */
  description?: ReactNode;
  /** A plain-language message shown when the field is invalid (else the form's message for its name). */
  errorMessage?: string;
  /** "Optional" after the label. */
  optional?: boolean;
}

function FieldLabel({ label, optional }: Pick<FieldText, 'label' | 'optional'>) {
  return (
    <Label className="ui-label">
      {label}
      {optional ? <span className="ui-label-optional"> (optional)</span> : null}
    </Label>
  );
}

function Messages({
  name,
  description,
  errorMessage,
}: Pick<FieldText, 'description' | 'errorMessage'> & { name?: string }) {
  return (
    <>
      {description ? (
        <Text slot="description" className="ui-description">
          {description}
        </Text>
      ) : null}
      <MessageSlot name={name}>
        <FieldError className="ui-error">{errorMessage}</FieldError>
      </MessageSlot>
    </>
  );
}

export type TextFieldProps = Omit<AriaTextFieldProps, 'children'> &
  FieldText & {
    /** The input's type (`email`, `tel`, …). */
    type?: string;
    /** A text area of this many rows instead of a one-line input. */
    rows?: number;
    placeholder?: string;
  };

/** A labelled text input (or text area) with its hint and message. */
export function TextField({
  label,
  description,
  errorMessage,
  optional,
  rows,
  placeholder,
  className,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={props.isInvalid ?? (errorMessage ? true : undefined)}
      className={['ui-field', className].filter(Boolean).join(' ')}
    >
      <FieldLabel label={label} optional={optional} />
      {rows ? (
        <TextArea className="ui-input" rows={rows} placeholder={placeholder} />
      ) : (
        <Input className="ui-input" placeholder={placeholder} />
      )}
      <Messages name={props.name} description={description} errorMessage={errorMessage} />
    </AriaTextField>
  );
}

export interface Option {
  id: string;
  label: ReactNode;
  /** A second line (a price, a delivery estimate). */
  description?: ReactNode;
  /** Read by assistive technology and typeahead when `label` is not plain text. */
  textValue?: string;
  isDisabled?: boolean;
}

export type SelectFieldProps = Omit<AriaSelectProps<Option>, 'children' | 'items'> &
  FieldText & { options: Option[] };

/** A labelled pick-one list (a button opening a list box) with its hint and message. */
export function SelectField({
  label,
  description,
  errorMessage,
  optional,
  options,
  className,
  ...props
}: SelectFieldProps) {
  return (
    <AriaSelect
      {...props}
      isInvalid={props.isInvalid ?? (errorMessage ? true : undefined)}
      className={['ui-field', className].filter(Boolean).join(' ')}
    >
      <FieldLabel label={label} optional={optional} />
      <Button className="ui-input ui-select-button">
        <SelectValue className="ui-select-value" />
        <span className="ui-select-chevron" aria-hidden="true" />
      </Button>
      <Messages name={props.name} description={description} errorMessage={errorMessage} />
      <Popover className="ui-popover" offset={4}>
        <ListBox className="ui-listbox" items={options}>
          {(option) => (
            <ListBoxItem
              id={option.id}
              className="ui-listbox-item"
              isDisabled={option.isDisabled}
              textValue={option.textValue ?? (typeof option.label === 'string' ? option.label : option.id)}
            >
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}

export type RadioGroupFieldProps = Omit<AriaRadioGroupProps, 'children'> &
  FieldText & {
    options: Option[];
    /** `cards`: each choice a bordered row (shipping rates, payment methods); `plain`: a list. */
    appearance?: 'plain' | 'cards';
  };

/** A labelled group of radio buttons (arrow keys move the choice) with its hint and message. */
export function RadioGroupField({
  label,
  description,
  errorMessage,
  optional,
  options,
  appearance = 'plain',
  className,
  ...props
}: RadioGroupFieldProps) {
  return (
    <AriaRadioGroup
      {...props}
      isInvalid={props.isInvalid ?? (errorMessage ? true : undefined)}
      className={['ui-field', 'ui-radio-group', className].filter(Boolean).join(' ')}
      data-appearance={appearance}
    >
      <FieldLabel label={label} optional={optional} />
      {description ? (
        <Text slot="description" className="ui-description">
          {description}
        </Text>
      ) : null}
      <div className="ui-radio-list">
        {options.map((option) => (
          <AriaRadio key={option.id} value={option.id} isDisabled={option.isDisabled} className="ui-radio">
            <span className="ui-radio-mark" aria-hidden="true" />
            <span className="ui-radio-text">
              <span className="ui-radio-label">{option.label}</span>
              {option.description ? <span className="ui-radio-description">{option.description}</span> : null}
            </span>
          </AriaRadio>
        ))}
      </div>
      <MessageSlot name={props.name}>
        <FieldError className="ui-error">{errorMessage}</FieldError>
      </MessageSlot>
    </AriaRadioGroup>
  );
}

export type CheckboxFieldProps = Omit<AriaCheckboxProps, 'children'> & Omit<FieldText, 'optional'>;

/** A checkbox with its label, an optional hint and message (tied to it by `aria-describedby`). */
export function CheckboxField({ label, description, errorMessage, className, ...props }: CheckboxFieldProps) {
  const generated = useId();
  const id = props.id ?? generated;
  const described = [description ? `${id}-description` : '', errorMessage ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={['ui-field', 'ui-checkbox-field', className].filter(Boolean).join(' ')}>
      <AriaCheckbox
        {...props}
        isInvalid={props.isInvalid ?? (errorMessage ? true : undefined)}
        aria-describedby={described || undefined}
        className="ui-checkbox"
      >
        <span className="ui-checkbox-box" aria-hidden="true">
          <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </span>
        <span className="ui-checkbox-label">{label}</span>
      </AriaCheckbox>
      {description ? (
        <span id={`${id}-description`} className="ui-description ui-checkbox-description">
          {description}
        </span>
      ) : null}
      <MessageSlot name={props.name}>
        {errorMessage ? (
          <span id={`${id}-error`} className="ui-error">
            {errorMessage}
          </span>
        ) : null}
      </MessageSlot>
    </div>
  );
}
