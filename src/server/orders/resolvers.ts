/** Order resolvers (reading an order, looking one up): thin mapping to the order service. */
import { GraphQLError } from 'graphql';
import { shownOrderItemAttributes } from '../catalog/display-names.ts';
import { viewerIdOf, moneyField } from '../cart/resolvers.ts';
import type { AccountContext } from '../context.ts';
import { paginate, type PageArgs } from '../relay.ts';
import {
  isDownloadPermitted,
  needsPayment,
  needsProcessing,
  type DownloadPermissionRow,
  type OrderItemRow,
  type OrderRow,
} from './service.ts';
import type { OrderAddress } from './tables.ts';
import { isCustomerSessionId } from '../session/service.ts';

type Ctx = AccountContext;

const b64 = (s: string) => Buffer.from(s).toString('base64');
/** WooCommerce object dates: ISO 8601 with offset. */
const wcDate = (d: Date | null | undefined) => (d ? d.toISOString().replace(/\.\d{3}Z$/, '+00:00') : null);

const itemsCache = new WeakMap<OrderRow, Promise<OrderItemRow[]>>();
const downloadsCache = new WeakMap<OrderRow, Promise<DownloadPermissionRow[]>>();
const itemsOf = (o: OrderRow, ctx: Ctx) => {
  if (!itemsCache.has(o)) itemsCache.set(o, ctx.orders.items(o.id));
  return itemsCache.get(o)!;
};
const downloadsOf = (o: OrderRow, ctx: Ctx) => {
  if (!downloadsCache.has(o)) downloadsCache.set(o, ctx.orders.downloads(o.id));
  return downloadsCache.get(o)!;
};

const address = (a: OrderAddress) => ({ ...a, country: a.country || null });
const hasAddress = (a: OrderAddress) => !!(a.address1 || a.city || a.postcode);

export function decodeOrderId(id: string, idType: string): number | null {
  if (idType === 'DATABASE_ID') return /^\d{1,10}$/.test(id) ? Number(id) : null;
  const m = /^order:(\d{1,10})$/.exec(Buffer.from(id, 'base64').toString('utf8'));
  return m ? Number(m[1]) : /^\d{1,10}$/.test(id) ? Number(id) : null;
}

type DownloadNode = DownloadPermissionRow & { order: OrderRow };

const ORDER_LOOKUPS_PER_HOUR = Number(process.env.ORDER_LOOKUPS_PER_HOUR ?? 20);

export const orderResolvers = {
  RootQuery: {
    order: async (
      _: unknown,
      a: { id?: string | null; idType?: 'ID' | 'DATABASE_ID' | 'ORDER_KEY' | null; orderKey?: string | null },
      ctx: Ctx,
    ) => {
      if (!a.id) return null;
      const idType = a.idType ?? 'ID';
      if (idType === 'ORDER_KEY') return a.id.startsWith('wc_order_') ? ctx.orders.getByKey(a.id) : null;
      const id = decodeOrderId(a.id, idType);
      if (id === null) return null;
      const order = await ctx.orders.get(id);
      if (!order) return null;
      // The owner or whoever holds the order key; nobody else. A customer's order needs that customer's
      // login (their session token alone is not enough); a guest order, the guest session that placed it.
      const owner = isCustomerSessionId(order.customerId)
        ? viewerIdOf(ctx) === order.customerId
        : order.customerId === ctx.session.customerId && !ctx.session.tokenError;
      const keyHolder = !!a.orderKey && a.orderKey === order.orderKey;
      return owner || keyHolder ? order : null;
    },
  },
  RootMutation: {
    lookupOrder: async (
      _: unknown,
      { input }: { input: { orderNumber: string; email: string; clientMutationId?: string | null } },
      ctx: Ctx,
    ) => {
      const { accounts } = ctx;
      const ip = ctx.auth.clientIp;
      // Guessing order numbers against one e-mail (or the reverse) is slow by design.
      const limit = await accounts.limiter.consume({
        bucket: 'order-lookup:ip',
        key: ip,
        limit: ORDER_LOOKUPS_PER_HOUR,
        windowSeconds: 3600,
      });
      if (!limit.allowed) {
        throw new GraphQLError(
          `Too many order lookups. Please try again in ${Math.max(1, Math.ceil(limit.retryAfterSeconds / 60))} minutes.`,
        );
      }
      const order =
        input.orderNumber.length <= 20 && input.email.length <= 254
          ? await ctx.orders.findByNumberAndEmail(input.orderNumber, input.email)
          : null;
      return {
        clientMutationId: input.clientMutationId ?? null,
        orderId: order?.id ?? null,
        orderKey: order?.orderKey ?? null,
      };
    },
  },
  Order: {
    id: (o: OrderRow) => b64(`order:${o.id}`),
    databaseId: (o: OrderRow) => o.id,
    orderNumber: (o: OrderRow) => String(o.id),
    orderKey: (o: OrderRow) => o.orderKey,
    status: (o: OrderRow) => o.status,
    date: (o: OrderRow) => wcDate(o.dateCreated),
    modified: (o: OrderRow) => wcDate(o.dateModified),
    datePaid: (o: OrderRow) => wcDate(o.datePaid),
    dateCompleted: (o: OrderRow) => wcDate(o.dateCompleted),
    currency: (o: OrderRow) => o.currency,
    paymentMethod: (o: OrderRow) => o.paymentMethod,
    paymentMethodTitle: (o: OrderRow) => o.paymentMethodTitle,
    transactionId: (o: OrderRow) => o.transactionId,
    createdVia: (o: OrderRow) => o.createdVia,
    customerNote: (o: OrderRow) => o.customerNote || null,
    subtotal: moneyField((o: OrderRow) => o.subtotalCents),
    total: moneyField((o: OrderRow) => o.totalCents),
    totalTax: moneyField((o: OrderRow) => o.totalTaxCents),
    discountTotal: moneyField((o: OrderRow) => o.discountCents),
    discountTax: moneyField((o: OrderRow) => o.discountTaxCents),
    shippingTotal: moneyField((o: OrderRow) => o.shippingCents),
    shippingTax: moneyField((o: OrderRow) => o.shippingTaxCents),
    cartTax: moneyField((o: OrderRow) => o.cartTaxCents),
    pricesIncludeTax: (o: OrderRow) => o.pricesIncludeTax,
    vatId: (o: OrderRow) => o.vatId,
    vatReverseCharge: (o: OrderRow) => o.vatReverseCharge,
    vatNote: (o: OrderRow) => o.vatNote,
    needsPayment: (o: OrderRow) => needsPayment(o),
    needsProcessing: async (o: OrderRow, _: unknown, ctx: Ctx) => needsProcessing(await itemsOf(o, ctx)),
    needsShippingAddress: async (o: OrderRow, _: unknown, ctx: Ctx) => (await itemsOf(o, ctx)).some((i) => !i.virtual),
    hasDownloadableItem: async (o: OrderRow, _: unknown, ctx: Ctx) =>
      (await itemsOf(o, ctx)).some((i) => i.downloadable),
    isDownloadPermitted: (o: OrderRow) => isDownloadPermitted(o),
    hasBillingAddress: (o: OrderRow) => hasAddress(o.billing),
    hasShippingAddress: (o: OrderRow) => hasAddress(o.shipping),
    billing: (o: OrderRow) => address(o.billing),
    shipping: (o: OrderRow) => address(o.shipping),
    metaData: (o: OrderRow, a: { key?: string | null; keysIn?: (string | null)[] | null }) =>
      o.metaData
        .map((m, i) => ({ id: b64(`order_meta:${o.id}:${i}`), key: m.key, value: m.value }))
        .filter((m) => (!a.key || m.key === a.key) && (!a.keysIn || a.keysIn.includes(m.key))),
    lineItems: async (o: OrderRow, a: PageArgs, ctx: Ctx) =>
      paginate(await itemsOf(o, ctx), a, { defaultPageSize: 100, maxPageSize: 100 }, (i) => i.id),
    downloadableItems: async (
      o: OrderRow,
      a: PageArgs & { where?: { active?: boolean | null; hasDownloadsRemaining?: boolean | null } | null },
      ctx: Ctx,
    ) => {
      let list: DownloadNode[] = isDownloadPermitted(o)
        ? (await downloadsOf(o, ctx)).map((d) => ({ ...d, order: o }))
        : [];
      const now = Date.now();
      const active = (d: DownloadNode) =>
        (!d.accessExpires || d.accessExpires.getTime() > now) &&
        (d.downloadsRemaining === null || d.downloadsRemaining > 0);
      if (a.where?.active === true) list = list.filter(active);
      if (a.where?.active === false) list = list.filter((d) => !active(d));
      if (a.where?.hasDownloadsRemaining === true)
        list = list.filter((d) => d.downloadsRemaining === null || d.downloadsRemaining > 0);
      return paginate(list, a, { defaultPageSize: 100, maxPageSize: 100 }, (d) => d.id);
    },
    paymentCurrency: (o: OrderRow) => o.paymentCurrency,
    cryptoAmount: (o: OrderRow) => o.cryptoAmount,
    cryptoRate: (o: OrderRow) => o.cryptoRate,
    paymentAddress: (o: OrderRow) => o.paymentAddress,
    receivedUnconfirmed: (o: OrderRow) => o.receivedUnconfirmed,
    receivedConfirmed: (o: OrderRow) => o.receivedConfirmed,
    timeoutValue: (o: OrderRow) =>
      o.paymentExpiresAt
        ? o.status === 'pending'
          ? Math.max(0, Math.floor((o.paymentExpiresAt.getTime() - Date.now()) / 1000))
          : 0
        : null,
    paymentExpiresAt: (o: OrderRow) => wcDate(o.paymentExpiresAt),
  },
  LineItem: {
    id: (i: OrderItemRow) => b64(`order_item:${i.orderId}+${i.id}`),
    databaseId: (i: OrderItemRow) => i.id,
    orderId: (i: OrderItemRow) => i.orderId,
    productId: (i: OrderItemRow) => i.productId,
    // WooGraphQL answers null, not 0, for a line that is not a variation.
    variationId: (i: OrderItemRow) => i.variationId || null,
    quantity: (i: OrderItemRow) => i.quantity,
    subtotal: moneyField((i: OrderItemRow) => i.subtotalCents),
    subtotalTax: moneyField((i: OrderItemRow) => i.subtotalTaxCents),
    total: moneyField((i: OrderItemRow) => i.totalCents),
    totalTax: moneyField((i: OrderItemRow) => i.totalTaxCents),
    metaData: (i: OrderItemRow) => [
      ...Object.entries(i.attributes).map(([key, value], n) => ({
        id: b64(`order_item_meta:${i.id}:${n}`),
        key,
        value,
      })),
      ...(i.backordered > 0
        ? [{ id: b64(`order_item_meta:${i.id}:backordered`), key: 'Backordered', value: String(i.backordered) }]
        : []),
    ],
    attributes: async (i: OrderItemRow, _: unknown, ctx: Ctx) => {
      // Recorded with the line; a line ordered before they were is named from the catalog, in the request's language.
      const shown = i.attributeNames.length
        ? i.attributeNames
        : shownOrderItemAttributes(i, (await ctx.catalog.snapshot()).productsById.get(i.productId), ctx.locale);
      return shown.map((a) => ({
        id: b64(`order_item_attribute:${i.id}:${a.key}`),
        attributeId: 0,
        name: a.key,
        label: a.name,
        value: i.attributes[a.key] ?? '',
        valueName: a.value,
      }));
    },
    product: async (i: OrderItemRow, _: unknown, ctx: Ctx) => {
      const p = (await ctx.catalog.snapshot()).productsById.get(i.productId);
      return p ? { node: p } : null;
    },
    variation: async (i: OrderItemRow, _: unknown, ctx: Ctx) => {
      if (!i.variationId) return null;
      const v = (await ctx.catalog.snapshot()).variationsById.get(i.variationId);
      return v ? { node: v } : null;
    },
  },
  DownloadableItem: {
    id: (d: DownloadNode) => b64(`download:${d.downloadId}`),
    downloadId: (d: DownloadNode) => d.downloadId,
    name: async (d: DownloadNode, _: unknown, ctx: Ctx) =>
      (await ctx.catalog.snapshot()).productsById.get(d.productId)?.downloads.find((x) => x.id === d.downloadId)
        ?.name ?? null,
    // url: the signed link is the downloads domain's (downloads/resolvers.ts).
    downloadsRemaining: (d: DownloadNode) => d.downloadsRemaining,
    accessExpires: (d: DownloadNode) => wcDate(d.accessExpires),
    product: async (d: DownloadNode, _: unknown, ctx: Ctx) =>
      (await ctx.catalog.snapshot()).productsById.get(d.productId) ?? null,
    download: async (d: DownloadNode, _: unknown, ctx: Ctx) => {
      const x = (await ctx.catalog.snapshot()).productsById
        .get(d.productId)
        ?.downloads.find((y) => y.id === d.downloadId);
      return x
        ? {
            downloadId: x.id,
            name: x.name,
            file: x.file,
            fileExt: x.file.split('.').pop() ?? null,
            fileType: null,
            allowedFileType: true,
            fileExists: true,
          }
        : null;
    },
  },
  PaymentGateway: {},
  OrderStatusEnum: {
    PENDING: 'pending',
    PROCESSING: 'processing',
    ON_HOLD: 'on-hold',
    COMPLETED: 'completed',
    CANCELLED: 'cancelled',
    REFUNDED: 'refunded',
    FAILED: 'failed',
    CHECKOUT_DRAFT: 'checkout-draft',
  },
};

export { GraphQLError };
