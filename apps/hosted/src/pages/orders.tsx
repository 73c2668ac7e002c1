import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { formatDate, formatMoney, humanize } from '../lib/format.ts';
import { orderProgress } from '../lib/order-status.ts';
import { createReturnByReferenceInputSchema, fieldErrors, RETURN_REASONS } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC, useTRPCClient } from '../lib/trpc.ts';
import { RequireSession } from '../session.tsx';
import { Button, FailureNotice, Form, Loading, Notice, Page } from '../ui.tsx';
import { OrderView, type Outputs } from './order-view.tsx';

function OrderList() {
  const trpc = useTRPC();
  const orders = useQuery(trpc.customer.account.listOrders.queryOptions({ limit: 50 }));
  if (orders.isPending) return <Loading what="your orders" />;
  if (orders.isError) return <FailureNotice failure={readFailure(orders.error)} />;
  return (
    <Page title="Your orders">
      {orders.data.data.length === 0 ? (
        <p>You have no orders yet.</p>
      ) : (
        <table className="responsive">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Placed</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.data.data.map((order) => (
              <tr key={order.id}>
                <td data-label="Order">
                  {order.orderReference ? (
                    <Link
                      to="/account/orders/$orderReference"
                      params={{ orderReference: order.orderReference }}
                    >
                      Order #{order.orderNumber}
                    </Link>
                  ) : (
                    `Order #${order.orderNumber}`
                  )}
                </td>
                <td data-label="Placed">{formatDate(order.createdAt)}</td>
                <td data-label="Status">{orderProgress(order).label}</td>
                <td data-label="Total" className="num">
                  {formatMoney(order.totalInCents, order.currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

export function OrdersPage() {
  return (
    <RequireSession>
      <OrderList />
    </RequireSession>
  );
}

type OrderReturns = Outputs['customer']['returns']['list'];

const INELIGIBLE: Record<string, string> = {
  NOT_SHIPPED: 'Returns open once something of the order has shipped.',
  RETURNS_DISABLED: 'This store does not take returns.',
  WINDOW_CLOSED: 'The return window of this order has closed.',
  NOTHING_TO_RETURN: 'Every shipped item is already in a return.',
};

/** The lines to send back: a quantity and a reason per returnable line, checked with the router's schema. */
function ReturnForm({ orderReference, returns }: { orderReference: string; returns: OrderReturns }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.customer.returns.create.mutationOptions());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [done, setDone] = useState(false);
  const lines = returns.eligibility.lines.filter((line) => line.returnableQuantity > 0);

  if (!returns.eligibility.eligible)
    return (
      <p className="muted">
        {INELIGIBLE[returns.eligibility.reason ?? ''] ?? 'Nothing can be returned now.'}
      </p>
    );
  return (
    <Form
      aria-labelledby="return-form-title"
      validationErrors={errors}
      onSubmit={async (event) => {
        event.preventDefault();
        setFailure(undefined);
        setDone(false);
        const form = event.currentTarget;
        const data = new FormData(form);
        const input = {
          orderReference,
          lines: lines
            .map((line) => ({
              lineId: line.lineId,
              quantity: Number(data.get(`quantity-${line.lineId}`) ?? 0),
              reason: String(data.get(`reason-${line.lineId}`)),
            }))
            .filter((line) => line.quantity > 0),
        };
        const parsed = createReturnByReferenceInputSchema.safeParse(input);
        if (!parsed.success) {
          setErrors({
            form:
              input.lines.length === 0
                ? 'Choose at least one item to return.'
                : (Object.values(fieldErrors(parsed.error))[0] ?? 'Check the items to return.'),
          });
          return;
        }
        setErrors({});
        try {
          await create.mutateAsync(parsed.data);
          setDone(true);
          form.reset();
          await queryClient.invalidateQueries({ queryKey: trpc.customer.returns.list.queryKey() });
        } catch (error) {
          setFailure(readFailure(error));
        }
      }}
    >
      <h3 id="return-form-title">Request a return</h3>
      {lines.map((line) => (
        <fieldset key={line.lineId} className="card">
          <legend>{line.name}</legend>
          <div className="field">
            <label htmlFor={`quantity-${line.lineId}`}>
              Quantity to return (up to {line.returnableQuantity})
            </label>
            <input
              id={`quantity-${line.lineId}`}
              name={`quantity-${line.lineId}`}
              type="number"
              inputMode="numeric"
              min={0}
              max={line.returnableQuantity}
              defaultValue={0}
            />
          </div>
          <div className="field">
            <label htmlFor={`reason-${line.lineId}`}>Reason</label>
            <select
              id={`reason-${line.lineId}`}
              name={`reason-${line.lineId}`}
              defaultValue="NO_LONGER_NEEDED"
            >
              {RETURN_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {humanize(reason)}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
      ))}
      {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      {done ? <Notice tone="success">Your return was requested.</Notice> : null}
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button type="submit" isDisabled={create.isPending}>
          Request return
        </Button>
      </div>
    </Form>
  );
}

function Returns({ orderReference }: { orderReference: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const returns = useQuery(trpc.customer.returns.list.queryOptions({ orderReference, limit: 50 }));
  const cancel = useMutation(
    trpc.customer.returns.cancel.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.customer.returns.list.queryKey() }),
    }),
  );
  if (returns.isPending) return <Loading what="returns" />;
  if (returns.isError) return <FailureNotice failure={readFailure(returns.error)} />;
  return (
    <section id="returns" aria-labelledby="returns-title">
      <h2 id="returns-title">Returns</h2>
      {returns.data.data.length === 0 ? <p className="muted">No returns for this order.</p> : null}
      <ul className="list">
        {returns.data.data.map((item) => (
          <li key={item.id} className="card" aria-label={`Return of ${formatDate(item.createdAt)}`}>
            <p>
              <strong>{humanize(item.status)}</strong> · requested {formatDate(item.createdAt)} · refund{' '}
              {formatMoney(item.refundTotalInCents, item.currency)}
            </p>
            <ul>
              {item.lines.map((line) => (
                <li key={line.lineId}>
                  {line.quantity} × {line.name} ({humanize(line.reason)})
                </li>
              ))}
            </ul>
            {item.rejectionReason ? <p>Not accepted: {item.rejectionReason}</p> : null}
            {item.status === 'REQUESTED' ? (
              <Button
                variant="danger"
                isDisabled={cancel.isPending}
                onPress={() => cancel.mutate({ orderReference, returnId: item.id })}
              >
                Cancel this return
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {cancel.isError ? <FailureNotice failure={readFailure(cancel.error)} /> : null}
      <ReturnForm orderReference={orderReference} returns={returns.data} />
    </section>
  );
}

function OrderDetail() {
  const trpc = useTRPC();
  const { orderReference } = useParams({ from: '/account/orders/$orderReference' });
  const order = useQuery(trpc.customer.account.getOrderByReference.queryOptions({ orderReference }));
  if (order.isPending) return <Loading what="the order" />;
  if (order.isError) {
    const failure = readFailure(order.error);
    return failure.status === 404 ? (
      <Page title="Order not found">
        <p>
          No order of yours has this address. <Link to="/account/orders">See your orders</Link>.
        </p>
      </Page>
    ) : (
      <FailureNotice failure={failure} />
    );
  }
  return (
    <Page title={`Order #${order.data.orderNumber}`}>
      <p>
        <Link to="/account/orders">All orders</Link>
      </p>
      <OrderView order={order.data} />
      <Returns orderReference={orderReference} />
    </Page>
  );
}

export function OrderDetailPage() {
  return (
    <RequireSession>
      <OrderDetail />
    </RequireSession>
  );
}

/** `/order-status?token=o1_…`: the read-only order of an order-confirmation email, no sign-in. */
export function OrderStatusPage({ token }: { token: string | undefined }) {
  const client = useTRPCClient();
  // A read sent as POST (the token stays out of URLs and access logs): a query of this page.
  const status = useQuery({
    queryKey: ['order-status', token],
    queryFn: () => client.public.orders.status.mutate({ token: token! }),
    enabled: token !== undefined,
  });
  if (token === undefined || (status.isError && readFailure(status.error).status === 404))
    return (
      <Page title="Order not found">
        <p>This order-status link does not work. Open it again from your order confirmation email.</p>
      </Page>
    );
  if (status.isPending) return <Loading what="your order" />;
  if (status.isError) return <FailureNotice failure={readFailure(status.error)} />;
  return (
    <Page title={`Order #${status.data.orderNumber}`}>
      <OrderView order={status.data} />
      <p className="muted">
        To request a return, <Link to="/account/orders">sign in to your account</Link>.
      </p>
    </Page>
  );
}
