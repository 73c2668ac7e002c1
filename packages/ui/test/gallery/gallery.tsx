import { type FormEvent, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  Button,
  Card,
  CheckboxField,
  Cluster,
  Container,
  Dialog,
  DialogTrigger,
  Form,
  LinkButton,
  Loading,
  Notice,
  Panel,
  RadioGroupField,
  SelectField,
  Skeleton,
  SkeletonText,
  Stack,
  Table,
  TextField,
  ToastRegion,
  toast,
} from '../../src/index.ts';
import '../../src/styles.css';

/** Every component of the package on one page, for the browser tests (axe, layout, behaviour). */

function DetailsForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(0);
  const [pending, setPending] = useState(false);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const found: Record<string, string> = {};
    if (!String(data.get('email') ?? '').includes('@'))
      found.email = 'Enter an email address like name@example.com.';
    if (!data.get('country')) found.country = 'Choose a country.';
    if (!data.get('speed')) found.speed = 'Choose a shipping method.';
    if (!data.get('terms')) found.terms = 'Accept the terms to continue.';
    setErrors(found);
    setSubmitted((count) => count + 1);
    // A valid submit stays pending (as while a slow server answers).
    if (Object.keys(found).length === 0) setPending(true);
  }
  return (
    <Form validationErrors={errors} onSubmit={submit} aria-label="Details">
      <TextField name="email" type="email" label="Email" description="Your receipt is sent here." />
      <TextField name="note" label="Delivery note" optional rows={3} />
      <SelectField
        name="country"
        label="Country"
        placeholder="Choose a country"
        options={[
          { id: 'US', label: 'United States' },
          { id: 'CA', label: 'Canada' },
          { id: 'GB', label: 'United Kingdom' },
        ]}
      />
      <RadioGroupField
        name="speed"
        label="Shipping method"
        appearance="cards"
        options={[
          { id: 'standard', label: 'Standard', description: '$5.00' },
          { id: 'express', label: 'Express', description: '$15.00' },
        ]}
      />
      <CheckboxField name="terms" value="yes" label="I accept the terms of sale" />
      <Button type="submit" wide isPending={pending} pendingLabel="Saving">
        Continue
      </Button>
      <p data-testid="submitted">Submitted {submitted} times</p>
    </Form>
  );
}

function Gallery() {
  const [presses, setPresses] = useState(0);
  return (
    <Container as="main" width="wide">
      <Stack gap="8">
        <h1>Design system</h1>
        <Cluster gap="3">
          <Button variant="primary" onPress={() => setPresses((n) => n + 1)}>
            Primary
          </Button>
          <Button variant="secondary">Secondary</Button>
          <Button variant="quiet">Quiet</Button>
          <Button variant="danger">Delete</Button>
          <Button isPending pendingLabel="Paying" onPress={() => setPresses((n) => n + 100)}>
            Pay $40.00
          </Button>
          <Button isDisabled>Disabled</Button>
          <LinkButton href="#top">Continue shopping</LinkButton>
        </Cluster>
        <p data-testid="presses">Pressed {presses}</p>
        <Card title="Your details">
          <DetailsForm />
        </Card>
        <Panel title="Order summary" tone="subtle">
          <Table
            caption="Items"
            columns={[
              { key: 'item', header: 'Item', cell: (row) => row.name },
              { key: 'qty', header: 'Quantity', align: 'end', cell: (row) => row.quantity },
              { key: 'total', header: 'Total', align: 'end', cell: (row) => row.total },
            ]}
            rows={[
              { id: '1', name: 'Stoneware mug', quantity: 2, total: '$48.00' },
              { id: '2', name: 'Organic cotton tee', quantity: 1, total: '$32.00' },
            ]}
            rowKey={(row) => row.id}
          />
        </Panel>
        <Stack gap="3">
          <Notice tone="info">Your cart is saved for 30 minutes.</Notice>
          <Notice tone="success" title="Payment received">
            Your order is placed.
          </Notice>
          <Notice tone="warning">Only 2 left in stock.</Notice>
          <Notice tone="error" title="Your card was declined">
            Try another card.
          </Notice>
        </Stack>
        <Cluster gap="3">
          <DialogTrigger>
            <Button variant="secondary">Remove address</Button>
            <Dialog title="Remove this address?" role="alertdialog">
              {(close) => (
                <>
                  <p>It is no longer offered at checkout.</p>
                  <Cluster gap="3" justify="end">
                    <Button variant="secondary" onPress={close}>
                      Keep it
                    </Button>
                    <Button variant="danger" onPress={close}>
                      Remove
                    </Button>
                  </Cluster>
                </>
              )}
            </Dialog>
          </DialogTrigger>
          <Button
            variant="secondary"
            onPress={() => toast({ title: 'Address saved', tone: 'success' }, { timeout: 0 })}
          >
            Save address
          </Button>
        </Cluster>
        <Card title="Loading">
          <Loading label="Loading your orders">
            <Skeleton width="40%" height="1.5rem" />
            <SkeletonText lines={3} />
          </Loading>
        </Card>
      </Stack>
      <ToastRegion />
    </Container>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Gallery />
  </StrictMode>,
);
