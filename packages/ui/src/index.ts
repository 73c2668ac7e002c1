/**
 * @commerce/ui: the design system of the hosted app (and the merchant admin next), on React Aria
 * Components. Import the stylesheet once per app: `import '@commerce/ui/styles.css'` (tokens
 * alone: `@commerce/ui/tokens.css`). docs/design-system.md describes the tokens and components.
 */
export { Button, type ButtonProps, type ButtonVariant, LinkButton, Spinner } from './button.tsx';
export { Dialog, DialogTrigger } from './dialog.tsx';
export { Loading, Notice, Skeleton, SkeletonText } from './feedback.tsx';
export {
  CheckboxField,
  type CheckboxFieldProps,
  type Option,
  RadioGroupField,
  type RadioGroupFieldProps,
  SelectField,
  type SelectFieldProps,
  TextField,
  type TextFieldProps,
} from './fields.tsx';
export { Form, type FormProps, MessageSlot } from './form.tsx';
export { Card, Cluster, Container, Panel, type Space, Stack, VisuallyHidden } from './layout.tsx';
export { type Column, Table } from './table.tsx';
export { type ToastContent, ToastRegion, toast, toastQueue } from './toast.tsx';
