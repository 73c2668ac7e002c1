import {
  createContext,
  type FormEvent,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';

type Errors = Record<string, string | string[]>;

/** The names of the fields that showed a message since the form was last submitted. */
const ReservedContext = createContext<ReadonlySet<string>>(new Set());

export interface FormProps extends AriaFormProps {
  /** Field name → plain-language message(s), typically from the server or a schema checked on submit. */
  validationErrors?: Errors;
}

/**
 * A form whose messages come from `validationErrors` (checked on submit, by a schema or the
 * server), never from the browser's own constraint bubbles.
 *
 * Layout stays still between submits: a field's message goes as soon as its value is edited, but
 * the space it took is kept until the form is submitted again, so the button below never moves
 * under the pointer (the first click after fixing a field lands).
 */
export function Form({ validationErrors, children, onSubmit, ...props }: FormProps) {
  const [shown, setShown] = useState<Errors>(validationErrors ?? {});
  const [reserved, setReserved] = useState<ReadonlySet<string>>(
    () => new Set(Object.keys(validationErrors ?? {})),
  );
  useEffect(() => {
    setShown(validationErrors ?? {});
    const names = Object.keys(validationErrors ?? {});
    if (names.length > 0) setReserved((current) => new Set([...current, ...names]));
  }, [validationErrors]);
  return (
    <AriaForm
      validationBehavior="aria"
      {...props}
      validationErrors={shown}
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        setReserved(new Set());
        onSubmit?.(event);
      }}
    >
      <ReservedContext.Provider value={reserved}>
        <div
          className="ui-form-body"
          onInput={(event) => {
            const name = (event.target as HTMLInputElement).name;
            if (name && shown[name] !== undefined)
              setShown((current) =>
                Object.fromEntries(Object.entries(current).filter(([key]) => key !== name)),
              );
          }}
          onChange={(event) => {
            // Radios, checkboxes and selects report a change, not an input.
            const name = (event.target as HTMLInputElement).name;
            if (name && shown[name] !== undefined)
              setShown((current) =>
                Object.fromEntries(Object.entries(current).filter(([key]) => key !== name)),
              );
          }}
        >
          {children}
        </div>
      </ReservedContext.Provider>
    </AriaForm>
  );
}

/**
 * The message area of a field: while the field's name is reserved by its form (or `keep` is
 * set), it keeps the tallest height it has had, so a message disappearing moves nothing.
 */
export function MessageSlot({
  name,
  keep,
  children,
}: {
  name?: string;
  keep?: boolean;
  children: ReactNode;
}) {
  const reserved = useContext(ReservedContext);
  const hold = Boolean(keep) || (name !== undefined && reserved.has(name));
  const ref = useRef<HTMLDivElement>(null);
  const [minHeight, setMinHeight] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (!hold) {
      if (minHeight !== 0) setMinHeight(0);
      return;
    }
    const height = element.scrollHeight;
    if (height > minHeight) setMinHeight(height);
  });
  return (
    <div ref={ref} className="ui-field-message" style={minHeight > 0 ? { minHeight } : undefined}>
      {children}
    </div>
  );
}
