import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { type MessageKey, useText } from '../i18n/index.ts';
import { formatDate, formatMoney, formatNumber } from '../lib/format.ts';
import { orderProgress } from '../lib/order-status.ts';
import { createReturnByReferenceInputSchema, fieldErrors, RETURN_REASONS } from '../lib/schemas.ts';
import { type ApiFailure, readFailure, useTRPC, useTRPCClient } from '../lib/trpc.ts';
import { RequireSession } from '../session.tsx';
import { Button, FailureNotice, Form, Loading, Notice, Page } from '../ui.tsx';
import { OrderView, type Outputs } from './order-view.tsx';

function OrderList() {
  const trpc = useTRPC();
  const orders = useQuery(trpc.customer.account.listOrders.queryOptions({ limit: 50 }));
  const t = useText();
  if (orders.isPending) return <Loading what={t('orders.loading')} />;
  if (orders.isError) return <FailureNotice failure={readFailure(orders.error)} />;
  return (
    <Page title={t('orders.title')}>
      {orders.data.data.length === 0 ? (
        <p>{t('orders.none')}</p>
      ) : (
        <table className="responsive">
          <thead>
            <tr>
              <th scope="col">{t('orders.order')}</th>
              <th scope="col">{t('orders.placed')}</th>
              <th scope="col">{t('orders.status')}</th>
              <th scope="col" className="num">
                {t('orders.total')}
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.data.data.map((order) => (
              <tr key={order.id}>
                <td data-label={t('orders.order')}>
                  {order.orderReference ? (
                    <Link
                      to="/account/orders/$orderReference"
                      params={{ orderReference: order.orderReference }}
                    >
                      {t('orders.orderNumber', order.orderNumber)}
                    </Link>
                  ) : (
                    t('orders.orderNumber', order.orderNumber)
                  )}
                </td>
                <td data-label={t('orders.placed')}>{formatDate(order.createdAt)}</td>
                <td data-label={t('orders.status')}>{orderProgress(order).label}</td>
                <td data-label={t('orders.total')} className="num">
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

const INELIGIBLE: Record<string, MessageKey> = {
  NOT_SHIPPED: 'returns.notShipped',
  RETURNS_DISABLED: 'returns.disabled',
  WINDOW_CLOSED: 'returns.windowClosed',
  NOTHING_TO_RETURN: 'returns.nothingToReturn',
};

/** The lines to send back: a quantity and a reason per returnable line, checked with the router's schema. */
function ReturnForm({ orderReference, returns }: { orderReference: string; returns: OrderReturns }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.customer.returns.create.mutationOptions());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [done, setDone] = useState(false);
  const t = useText();
  const lines = returns.eligibility.lines.filter((line) => line.returnableQuantity > 0);

  if (!returns.eligibility.eligible)
    return <p className="muted">{t(INELIGIBLE[returns.eligibility.reason ?? ''] ?? 'returns.nothingNow')}</p>;
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
                ? t('returns.chooseItem')
                : (Object.values(fieldErrors(parsed.error))[0] ?? t('returns.checkItems')),
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
      <h3 id="return-form-title">{t('returns.formTitle')}</h3>
      {lines.map((line) => (
        <fieldset key={line.lineId} className="card">
          <legend>{line.name}</legend>
          <div className="field">
            <label htmlFor={`quantity-${line.lineId}`}>
              {t('returns.quantity', line.returnableQuantity)}
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
            <label htmlFor={`reason-${line.lineId}`}>{t('returns.reason')}</label>
            <select
              id={`reason-${line.lineId}`}
              name={`reason-${line.lineId}`}
              defaultValue="NO_LONGER_NEEDED"
            >
              {RETURN_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {t('returns.reasonName', reason)}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
      ))}
      {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      {done ? <Notice tone="success">{t('returns.requested')}</Notice> : null}
      <FailureNotice failure={failure} />
      <div className="actions">
        <Button type="submit" isDisabled={create.isPending}>
          {t('returns.submit')}
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
  const t = useText();
  if (returns.isPending) return <Loading what={t('returns.loading')} />;
  if (returns.isError) return <FailureNotice failure={readFailure(returns.error)} />;
  return (
    <section id="returns" aria-labelledby="returns-title">
      <h2 id="returns-title">{t('returns.title')}</h2>
      {returns.data.data.length === 0 ? <p className="muted">{t('returns.none')}</p> : null}
      <ul className="list">
        {returns.data.data.map((item) => (
          <li key={item.id} className="card" aria-label={t('returns.of', formatDate(item.createdAt))}>
            <p>
              <strong>{t('returns.statusName', item.status)}</strong>
              {t(
                'returns.summary',
                formatDate(item.createdAt),
                formatMoney(item.refundTotalInCents, item.currency),
              )}
            </p>
            <ul>
              {item.lines.map((line) => (
                <li key={line.lineId}>
                  {t('order.quantityOf', formatNumber(line.quantity), line.name)} (
                  {t('returns.reasonName', line.reason)})
                </li>
              ))}
            </ul>
            {item.rejectionReason ? <p>{t('returns.notAccepted', item.rejectionReason)}</p> : null}
            {item.status === 'REQUESTED' ? (
              <Button
                variant="danger"
                isDisabled={cancel.isPending}
                onPress={() => cancel.mutate({ orderReference, returnId: item.id })}
              >
                {t('returns.cancel')}
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
  const t = useText();
  if (order.isPending) return <Loading what={t('order.loading')} />;
  if (order.isError) {
    const failure = readFailure(order.error);
    return failure.status === 404 ? (
      <Page title={t('order.notFound')}>
        <p>
          {t('order.noSuchOrder')} <Link to="/account/orders">{t('order.seeOrders')}</Link>.
        </p>
      </Page>
    ) : (
      <FailureNotice failure={failure} />
    );
  }
  return (
    <Page title={t('orders.orderNumber', order.data.orderNumber)}>
      <p>
        <Link to="/account/orders">{t('order.allOrders')}</Link>
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
  const t = useText();
  if (token === undefined || (status.isError && readFailure(status.error).status === 404))
    return (
      <Page title={t('order.notFound')}>
        <p>{t('order.statusLinkBroken')}</p>
      </Page>
    );
  if (status.isPending) return <Loading what={t('order.statusLoading')} />;
  if (status.isError) return <FailureNotice failure={readFailure(status.error)} />;
  return (
    <Page title={t('orders.orderNumber', status.data.orderNumber)}>
      <OrderView order={status.data} />
      <p className="muted">
        {t('order.toReturn')} <Link to="/account/orders">{t('order.signInToAccount')}</Link>.
      </p>
    </Page>
  );
}
