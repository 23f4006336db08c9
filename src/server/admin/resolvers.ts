/**
 * Admin GraphQL resolvers: each root field checks the shop-manager role, then calls the admin service
 * and maps rows/models to the admin types (cents as Int, ISO dates, upper-case enums).
 */
import { GraphQLError } from 'graphql';
import type {
  AdminAttributeInput,
  AdminCategoryInput,
  AdminCouponInput,
  AdminCouponUsagesArgs,
  AdminOrderMove,
  AdminPriceInput,
  AdminProductInput,
  AdminReviewStatus,
  AdminStockInput,
  AdminVariationInput,
  Mutation,
  MutationAdminAddOrderNoteArgs,
  MutationAdminAddProductDownloadArgs,
  MutationAdminArchiveProductArgs,
  MutationAdminCreateCategoryArgs,
  MutationAdminCreateCouponArgs,
  MutationAdminCreateProductArgs,
  MutationAdminCreateVariationArgs,
  MutationAdminDeleteCategoryArgs,
  MutationAdminDeleteVariationArgs,
  MutationAdminEraseCustomerArgs,
  MutationAdminExportCustomerDataArgs,
  MutationAdminExpireCouponArgs,
  MutationAdminModerateReviewArgs,
  MutationAdminRefundOrderArgs,
  MutationAdminRemoveProductDownloadArgs,
  MutationAdminRetryMailArgs,
  MutationAdminSetMessageAnsweredArgs,
  MutationAdminSetPriceArgs,
  MutationAdminSetStockArgs,
  MutationAdminUpdateCategoryArgs,
  MutationAdminUpdateCouponArgs,
  MutationAdminUpdateOrderStatusArgs,
  MutationAdminUpdateProductArgs,
  MutationAdminUpdateVariationArgs,
  MutationAdminUploadImageArgs,
  Query,
  QueryAdminContactMessagesArgs,
  QueryAdminCouponArgs,
  QueryAdminCouponsArgs,
  QueryAdminCustomerArgs,
  QueryAdminExportCsvArgs,
  QueryAdminFailedMailsArgs,
  QueryAdminNewsletterSubscribersArgs,
  QueryAdminOrderArgs,
  QueryAdminOrdersArgs,
  QueryAdminPrivacyLogArgs,
  QueryAdminProductArgs,
  QueryAdminProductsArgs,
  QueryAdminReviewsArgs,
} from '../../graphql/generated/admin-schema.ts';
import type { CatalogOperator, CategoryInput, ProductInput, StockInput, VariationInput } from '../catalog/operator.ts';
import { productOnSale, productPrice, productStockStatus, stockStatusOf } from '../catalog/pricing.ts';
import { matchesSearch, type ProductModel, type VariationModel, type ImageModel } from '../catalog/snapshot.ts';
import { shownOrderItemAttributes, variationChoices } from '../catalog/display-names.ts';
import { DEFAULT_LOCALE } from '../../lib/i18n/locales.ts';
import { translationList, translationRecord } from '../catalog/translations.ts';
import { storedLocale } from '../i18n/stored-locale.ts';
import type { RequestAuth } from '../auth/service.ts';
import type { CouponInput, CouponRow } from '../coupons/operator.ts';
import { isShopManager } from '../customers/operator.ts';
import type { ContactMessageRow } from '../contact/operator.ts';
import type { Engine } from '../engine/index.ts';
import type { MailQueueRow } from '../mail/index.ts';
import type { SubscriberRow } from '../newsletter/operator.ts';
import type { RefundRow } from '../orders/operator.ts';
import type { OrderRow } from '../orders/service.ts';
import type { ModeratedReview, ReviewStatus } from '../reviews/operator.ts';
import type { PublishStatus } from '../publish/index.ts';
import { AdminError, FORBIDDEN_MESSAGE, LOGIN_REQUIRED_MESSAGE, toGraphQLError } from './errors.ts';
import { page, type AdminService, type StatusMove } from './service.ts';

export type AdminContext = { engine: Engine; admin: AdminService; auth: RequestAuth; request: Request };

/** 'on-hold' → 'ON_HOLD' (order statuses keep WooCommerce's hyphen). */
const up = (s: string) => s.toUpperCase().replace(/-/g, '_');
type Down<S> = S extends string ? Lowercase<S> : S;
/**
 * 'PUBLISH' → 'publish': an admin enum value as the engine spells it; null and absent stay so. Typed
 * per value, so the type check fails when an admin enum gains a value the engine does not know.
 */
const down = <S extends string | null | undefined>(s: S): Down<S> => (s == null ? s : s.toLowerCase()) as Down<S>;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function actorOf(ctx: AdminContext): string {
  return `user:${ctx.auth.viewer!.id}`;
}

/** The role check every admin field makes, and admin refusals as GraphQL errors with their code. */
function guarded<A, R>(fn: (args: A, ctx: AdminContext) => Promise<R>) {
  return async (_: unknown, args: A, ctx: AdminContext): Promise<R> => {
    if (!ctx.auth.viewer) {
      throw new GraphQLError(ctx.auth.error ?? LOGIN_REQUIRED_MESSAGE, {
        extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
      });
    }
    if (!isShopManager(ctx.auth.viewer))
      throw new GraphQLError(FORBIDDEN_MESSAGE, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
    try {
      return await fn(args, ctx);
    } catch (err) {
      throw toGraphQLError(err);
    }
  };
}

// ---------- mapping ----------

const imageOut = (i: ImageModel | null) =>
  i
    ? {
        id: i.id,
        url: i.file.startsWith('/') ? i.file : `/media/catalog/${i.file}`,
        altText: i.altText,
        width: i.width,
        height: i.height,
      }
    : null;

function variationOut(v: VariationModel) {
  return {
    id: v.id,
    productId: v.product.id,
    sku: v.sku,
    attributes: Object.entries(v.attributes).map(([name, value]) => ({ name, value })),
    label: variationChoices(v, DEFAULT_LOCALE.code),
    regularPriceCents: v.regularPriceCents,
    salePriceCents: v.salePriceCents,
    manageStock: v.manageStock,
    stockQuantity: v.stockQuantity,
    lowStockAmount: v.lowStockAmount,
    backorders: up(v.backorders),
    stockStatus: up(stockStatusOf(v)),
    description: v.description,
    image: imageOut(v.image),
  };
}

function productOut(p: ProductModel) {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    sku: p.sku,
    type: up(p.type),
    status: up(p.status),
    visibility: up(p.visibility),
    featured: p.featured,
    menuOrder: p.menuOrder,
    shortDescription: p.shortDescription,
    description: p.description,
    translations: translationList(p.translations),
    regularPriceCents: p.regularPriceCents,
    salePriceCents: p.salePriceCents,
    dateOnSaleFrom: iso(p.dateOnSaleFrom),
    dateOnSaleTo: iso(p.dateOnSaleTo),
    priceCents: productPrice(p),
    onSale: productOnSale(p),
    manageStock: p.manageStock,
    stockQuantity: p.stockQuantity,
    lowStockAmount: p.lowStockAmount,
    backorders: up(p.backorders),
    stockStatus: up(productStockStatus(p)),
    virtual: p.virtual,
    downloadable: p.downloadable,
    downloadLimit: p.downloadLimit,
    downloadExpiry: p.downloadExpiry,
    downloads: p.downloads,
    externalUrl: p.externalUrl,
    buttonText: p.buttonText,
    reviewsAllowed: p.reviewsAllowed,
    totalSales: p.totalSales,
    image: imageOut(p.image),
    gallery: p.gallery.map(imageOut),
    categories: p.categories.map((c) => ({ id: c.id, name: c.name, slug: c.slug })),
    attributes: p.attributes.map((a) => ({
      name: a.attribute ? a.attribute.slug : a.name,
      options: a.options,
      visible: a.visible,
      variation: a.variation,
    })),
    variations: p.variations.map(variationOut),
    permalink: `/product/${p.slug}`,
    dateCreated: iso(p.date),
    dateModified: iso(p.modified),
  };
}

const EMPTY_ADDRESS = {
  firstName: '',
  lastName: '',
  company: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  postcode: '',
  country: '',
  email: '',
  phone: '',
};
/** Guest orders may carry partial addresses: every field is a string for the UI. */
const addressOut = (a: Partial<OrderRow['billing']>) => Object.assign({}, EMPTY_ADDRESS, a);

const refundOut = (r: RefundRow) => ({ ...r, date: iso(r.createdAt) });

/** An order row plus the lazily loaded parts (items, notes, refunds) the UI asks for. */
function orderOut(o: OrderRow, ctx: AdminContext) {
  let refunds: Promise<RefundRow[]> | null = null;
  const loadRefunds = () => (refunds ??= ctx.admin.orders.refunds(o.id));
  const refunded = async () =>
    (await loadRefunds()).filter((r) => r.status === 'succeeded').reduce((s, r) => s + r.amountCents, 0);
  return {
    id: o.id,
    number: String(o.id),
    status: up(o.status),
    customerUserId: /^\d+$/.test(o.customerId) ? Number(o.customerId) : null,
    customerEmail: o.billing.email ?? '',
    customerName: [o.billing.firstName, o.billing.lastName].filter(Boolean).join(' '),
    billing: addressOut(o.billing),
    shipping: addressOut(o.shipping),
    paymentMethod: o.paymentMethod,
    paymentMethodTitle: o.paymentMethodTitle,
    transactionId: o.transactionId,
    currency: o.currency,
    subtotalCents: o.subtotalCents,
    discountCents: o.discountCents,
    discountTaxCents: o.discountTaxCents,
    shippingCents: o.shippingCents,
    shippingTaxCents: o.shippingTaxCents,
    totalTaxCents: o.totalTaxCents,
    totalCents: o.totalCents,
    pricesIncludeTax: o.pricesIncludeTax,
    vatId: o.vatId,
    vatIdUnverified: o.vatIdUnverified,
    vatReverseCharge: o.vatReverseCharge,
    vatNote: o.vatNote,
    refundedCents: refunded,
    refundableCents: async () =>
      Math.max(
        0,
        o.totalCents -
          (await loadRefunds()).filter((r) => r.status !== 'failed').reduce((s, r) => s + r.amountCents, 0),
      ),
    couponCodes: o.couponLines.map((c) => c.code),
    shippingMethod: o.shippingLines[0]?.label ?? null,
    customerNote: o.customerNote,
    dateCreated: iso(o.dateCreated),
    datePaid: iso(o.datePaid),
    dateCompleted: iso(o.dateCompleted),
    items: async () => {
      // Attribute and term names ("Color: Black"), not the slugs, as the customer saw them when ordering
      // (catalog/display-names.ts).
      const snap = await ctx.engine.catalog.snapshot();
      return (await ctx.engine.orders.items(o.id)).map((i) => ({
        ...i,
        attributes: shownOrderItemAttributes(i, snap.productsById.get(i.productId), storedLocale(o)),
      }));
    },
    notes: async () => (await ctx.engine.orders.notes(o.id)).map((n) => ({ note: n.note, date: iso(n.createdAt) })),
    refunds: async () => (await loadRefunds()).map(refundOut),
  };
}

function couponOut(c: CouponRow, ctx: AdminContext) {
  return {
    ...c,
    discountType: up(c.discountType),
    expiresAt: iso(c.expiresAt),
    expired: !!c.expiresAt && c.expiresAt.getTime() <= Date.now(),
    dateCreated: iso(c.createdAt),
    usages: async ({ first }: AdminCouponUsagesArgs) =>
      (await ctx.admin.coupons.usages(c.id, page(first ?? 50, 0).limit)).map((u) => ({
        orderId: u.orderId,
        customer: u.customerKey.replace(/^(email|user|order):/, ''),
        date: iso(u.usedAt),
      })),
  };
}

const REVIEW_OUT: Record<string, string> = { approved: 'APPROVED', pending: 'PENDING', spam: 'REJECTED' };
const REVIEW_IN: Record<AdminReviewStatus, ReviewStatus> = {
  APPROVED: 'approved',
  PENDING: 'pending',
  REJECTED: 'spam',
};
const reviewOut = (r: ModeratedReview) => ({ ...r, date: iso(r.date), status: REVIEW_OUT[r.status] ?? 'PENDING' });

const messageOut = (m: ContactMessageRow) => ({
  ...m,
  date: iso(m.createdAt),
  answered: !!m.answeredAt,
  answeredAt: iso(m.answeredAt),
});
const subscriberOut = (s: SubscriberRow) => ({
  ...s,
  status: up(s.status),
  date: iso(s.createdAt),
  confirmedAt: iso(s.confirmedAt),
  unsubscribedAt: iso(s.unsubscribedAt),
});

const publishOut = (p: PublishStatus) => ({ ...p, state: up(p.state) });

const mailOut = (m: MailQueueRow, ctx: AdminContext) => ({
  id: m.id,
  kind: m.kind,
  idempotencyKey: m.idempotencyKey,
  recipients: m.recipients,
  subject: m.subject,
  status: up(m.status),
  attempts: m.attempts,
  maxAttempts: ctx.engine.mail.settings.maxAttempts,
  lastError: m.lastError,
  nextAttemptAt: m.status === 'queued' ? iso(m.nextAttemptAt) : null,
  createdAt: iso(m.createdAt),
  updatedAt: iso(m.updatedAt),
  sentAt: iso(m.sentAt),
});

// ---------- inputs ----------

/** The keys of an engine input that take no null (absent is fine: it keeps the stored value or the default). */
type NullFree<D> = { [K in keyof D]-?: null extends D[K] ? never : K }[keyof D];

/**
 * GraphQL lets a client send null for any optional input field, but the engine takes null only where it
 * means something (no sale price, unlimited downloads …). A null anywhere else is refused here, naming
 * the field, before the engine sees it.
 */
function refuseNulls<T extends object, K extends keyof T & string>(
  input: T,
  fields: readonly K[],
  path = '',
): asserts input is T & { [P in K]?: Exclude<T[P], null> } {
  const field = fields.find((f) => input[f] === null);
  if (field) throw new AdminError(`${path}${field} cannot be null: leave it out instead.`);
}

const STOCK_NOT_NULL = ['manageStock', 'backorders', 'stockStatus'] as const satisfies readonly NullFree<StockInput>[];
const PRODUCT_NOT_NULL = [
  ...STOCK_NOT_NULL,
  'name',
  'slug',
  'sku',
  'type',
  'status',
  'visibility',
  'featured',
  'menuOrder',
  'shortDescription',
  'description',
  'virtual',
  'downloadable',
  'reviewsAllowed',
  'categoryIds',
  'galleryImageIds',
  'attributes',
] as const satisfies readonly NullFree<ProductInput>[];
type AttributeInput = NonNullable<ProductInput['attributes']>[number];
const ATTRIBUTE_NOT_NULL = ['visible', 'variation'] as const satisfies readonly NullFree<AttributeInput>[];
const VARIATION_NOT_NULL = [
  ...STOCK_NOT_NULL,
  'sku',
  'attributes',
  'regularPriceCents',
  'description',
  'menuOrder',
] as const satisfies readonly NullFree<VariationInput>[];
type PriceInput = Parameters<CatalogOperator['setPrice']>[1];
const PRICE_NOT_NULL = ['regularPriceCents'] as const satisfies readonly NullFree<PriceInput>[];
const CATEGORY_NOT_NULL = [
  'name',
  'slug',
  'description',
  'menuOrder',
] as const satisfies readonly NullFree<CategoryInput>[];
const COUPON_NOT_NULL = [
  'code',
  'description',
  'discountType',
  'amountCents',
  'individualUse',
  'freeShipping',
  'excludeSaleItems',
  'productSlugs',
  'excludedProductSlugs',
  'categorySlugs',
  'excludedCategorySlugs',
  'emailRestrictions',
] as const satisfies readonly NullFree<CouponInput>[];

function attributeIn(a: AdminAttributeInput, i: number): AttributeInput {
  refuseNulls(a, ATTRIBUTE_NOT_NULL, `attributes[${i}].`);
  return a;
}

function stockIn(input: AdminStockInput): StockInput {
  refuseNulls(input, STOCK_NOT_NULL);
  return { ...input, backorders: down(input.backorders), stockStatus: down(input.stockStatus) };
}

function productIn(input: AdminProductInput): ProductInput {
  refuseNulls(input, PRODUCT_NOT_NULL);
  return {
    ...input,
    backorders: down(input.backorders),
    stockStatus: down(input.stockStatus),
    type: down(input.type),
    status: down(input.status),
    visibility: down(input.visibility),
    attributes: input.attributes?.map(attributeIn),
    translations: input.translations ? translationRecord(input.translations) : undefined,
  };
}

function variationIn(input: AdminVariationInput): VariationInput {
  refuseNulls(input, VARIATION_NOT_NULL);
  return {
    ...input,
    backorders: down(input.backorders),
    stockStatus: down(input.stockStatus),
    attributes: input.attributes && Object.fromEntries(input.attributes.map((a) => [a.name, a.value])),
  };
}

function priceIn(input: AdminPriceInput): PriceInput {
  refuseNulls(input, PRICE_NOT_NULL);
  return input;
}

function categoryIn(input: AdminCategoryInput): CategoryInput {
  refuseNulls(input, CATEGORY_NOT_NULL);
  return { ...input, translations: input.translations ? translationRecord(input.translations) : undefined };
}

function couponIn(input: AdminCouponInput): CouponInput {
  refuseNulls(input, COUPON_NOT_NULL);
  return { ...input, discountType: down(input.discountType) };
}

/** The moves an operator may make, as the engine spells the status (on-hold keeps WooCommerce's hyphen). */
const ORDER_MOVE_IN: Record<AdminOrderMove, StatusMove['status']> = {
  COMPLETED: 'completed',
  PROCESSING: 'processing',
  ON_HOLD: 'on-hold',
  CANCELLED: 'cancelled',
};

async function productById(ctx: AdminContext, id: number) {
  const p = await ctx.admin.catalog.product(id);
  if (!p) throw new AdminError(`There is no product with id ${id}.`, 'NOT_FOUND');
  return productOut(p);
}

async function stockResult(ctx: AdminContext, id: number, kind: 'product' | 'variation') {
  if (kind === 'variation') {
    const v = (await ctx.admin.catalog.variation(id))!;
    return { kind, product: productOut(v.product), variation: variationOut(v) };
  }
  return { kind, product: await productById(ctx, id), variation: null };
}

/**
 * Each resolver takes its field's arguments as the generated type (src/graphql/generated/admin-schema.ts,
 * `npm run codegen`); `satisfies` fails the type check when a schema field has no resolver here or a
 * resolver answers a field the schema does not have.
 */
export const adminResolvers = {
  Query: {
    adminViewer: (_: unknown, __: unknown, ctx: AdminContext) => {
      const v = ctx.auth.viewer;
      return v
        ? { id: v.id, username: v.username, email: v.email, displayName: v.displayName || v.username, role: v.role }
        : null;
    },
    adminDashboard: guarded(async (_a, ctx) => {
      const d = await ctx.admin.dashboard();
      return {
        ...d,
        ordersByStatus: d.ordersByStatus.map((s) => ({ status: up(s.status), count: s.count })),
        lowStock: d.lowStock.map((i) => ({ ...i, stockStatus: up(i.stockStatus) })),
      };
    }),
    adminProducts: guarded(async (a: QueryAdminProductsArgs, ctx) => {
      const { limit, offset } = page(a.first, a.offset);
      const snap = await ctx.engine.catalog.snapshot();
      const needle = (a.search ?? '').trim().toLowerCase();
      const status = down(a.status);
      const cats = a.categoryId ? snap.categoryDescendants.get(a.categoryId) : null;
      if (a.categoryId && !cats) throw new AdminError(`There is no category with id ${a.categoryId}.`, 'NOT_FOUND');
      const low = a.lowStock ? new Set((await ctx.admin.lowStock(10_000)).map((i) => i.productId)) : null;
      const list = snap.products.filter(
        (p) =>
          (!needle ||
            matchesSearch(p, needle, 'any') ||
            p.variations.some((v) => v.sku.toLowerCase().includes(needle))) &&
          (!status || p.status === status) &&
          (!cats || p.categories.some((c) => cats.has(c.id))) &&
          (!low || low.has(p.id)),
      );
      return { total: list.length, nodes: list.slice(offset, offset + limit).map(productOut) };
    }),
    adminProduct: guarded(async (a: QueryAdminProductArgs, ctx) => {
      const p = await ctx.admin.catalog.product(a.id);
      return p ? productOut(p) : null;
    }),
    adminCategories: guarded(async (_a, ctx) => {
      const snap = await ctx.engine.catalog.snapshot();
      return snap.terms
        .filter((t) => t.taxonomy === 'product_cat')
        .map((t) => ({ ...t, image: imageOut(t.image), translations: translationList(t.translations) }));
    }),
    adminOrders: guarded(async (a: QueryAdminOrdersArgs, ctx) => {
      const r = await ctx.admin.listOrders({
        statuses: a.status,
        dateFrom: a.dateFrom,
        dateTo: a.dateTo,
        customer: a.customer,
        first: a.first,
        offset: a.offset,
      });
      return { total: r.total, nodes: r.rows.map((o) => orderOut(o, ctx)) };
    }),
    adminOrder: guarded(async (a: QueryAdminOrderArgs, ctx) => {
      const o = a.id > 0 && a.id <= 2147483647 ? await ctx.engine.orders.get(a.id) : null;
      return o ? orderOut(o, ctx) : null;
    }),
    adminCoupons: guarded(async (a: QueryAdminCouponsArgs, ctx) => {
      const r = await ctx.admin.coupons.list({ search: a.search, ...page(a.first, a.offset) });
      return { total: r.total, nodes: r.rows.map((c) => couponOut(c, ctx)) };
    }),
    adminCoupon: guarded(async (a: QueryAdminCouponArgs, ctx) => {
      const { id, code } = a;
      let c: CouponRow | null;
      if (id != null && code == null) c = await ctx.admin.coupons.get(id);
      else if (code != null && id == null) c = await ctx.admin.coupons.getByCode(code);
      else throw new AdminError('Give either id or code.');
      return c ? couponOut(c, ctx) : null;
    }),
    adminReviews: guarded(async (a: QueryAdminReviewsArgs, ctx) => {
      const r = await ctx.admin.reviews.list({
        status: a.status ? REVIEW_IN[a.status] : null,
        productId: a.productId,
        ...page(a.first, a.offset),
      });
      return { total: r.total, nodes: r.rows.map(reviewOut) };
    }),
    adminContactMessages: guarded(async (a: QueryAdminContactMessagesArgs, ctx) => {
      const r = await ctx.admin.contact.list({ answered: a.answered, ...page(a.first, a.offset) });
      return { total: r.total, nodes: r.rows.map(messageOut) };
    }),
    adminNewsletterSubscribers: guarded(async (a: QueryAdminNewsletterSubscribersArgs, ctx) => {
      const r = await ctx.admin.newsletter.list({
        status: down(a.status),
        ...page(a.first, a.offset),
      });
      return { total: r.total, nodes: r.rows.map(subscriberOut) };
    }),
    adminPublishStatus: guarded(async (_a, ctx) => publishOut(await ctx.admin.publishStatus())),
    adminFailedMails: guarded(async (a: QueryAdminFailedMailsArgs, ctx) => {
      const r = await ctx.admin.failedMails(a);
      return { total: r.total, nodes: r.rows.map((m) => mailOut(m, ctx)) };
    }),
    adminCustomer: guarded(async (a: QueryAdminCustomerArgs, ctx) => {
      const c = await ctx.admin.privacy.find(a.email);
      if (!c) return null;
      return {
        id: c.id,
        email: c.email,
        username: c.username,
        displayName: c.displayName || [c.firstName, c.lastName].filter(Boolean).join(' ') || c.username,
        role: c.role,
        createdAt: c.createdAt.toISOString(),
        emailVerified: c.emailVerifiedAt !== null,
        hasPassword: c.passwordHash !== null,
        orderCount: (await ctx.engine.orders.listByCustomer(String(c.id), 10_000)).length,
      };
    }),
    adminPrivacyLog: guarded(async (a: QueryAdminPrivacyLogArgs, ctx) => {
      const r = await ctx.admin.privacy.log(a.email ?? null, page(a.first, a.offset));
      return {
        total: r.total,
        nodes: r.rows.map((e) => ({
          id: e.id,
          at: e.at.toISOString(),
          actor: e.actor,
          action: up(e.action),
          customerId: e.customerId,
          customerRef: e.customerRef,
        })),
      };
    }),
    adminExportCsv: guarded(async (a: QueryAdminExportCsvArgs, ctx) => {
      const kind = a.kind === 'CONTACT_MESSAGES' ? 'contact-messages' : 'newsletter-subscribers';
      const csv = await ctx.admin.exportCsv(kind, down(a.status));
      const day = new Date().toISOString().slice(0, 10);
      return {
        fileName: `${kind}-${day}.csv`,
        contentType: 'text/csv; charset=utf-8',
        rows: csv.split('\r\n').length - 2,
        csv,
      };
    }),
  },
  Mutation: {
    adminCreateProduct: guarded(async (a: MutationAdminCreateProductArgs, ctx) =>
      productById(ctx, await ctx.admin.catalog.createProduct(productIn(a.input))),
    ),
    adminUpdateProduct: guarded(async (a: MutationAdminUpdateProductArgs, ctx) => {
      await ctx.admin.catalog.updateProduct(a.id, productIn(a.input));
      return productById(ctx, a.id);
    }),
    adminArchiveProduct: guarded(async (a: MutationAdminArchiveProductArgs, ctx) => {
      await ctx.admin.catalog.archiveProduct(a.id);
      return productById(ctx, a.id);
    }),
    adminSetStock: guarded(async (a: MutationAdminSetStockArgs, ctx) =>
      stockResult(ctx, a.id, await ctx.admin.catalog.setStock(a.id, stockIn(a.input))),
    ),
    adminSetPrice: guarded(async (a: MutationAdminSetPriceArgs, ctx) =>
      stockResult(ctx, a.id, await ctx.admin.catalog.setPrice(a.id, priceIn(a.input))),
    ),
    adminCreateVariation: guarded(async (a: MutationAdminCreateVariationArgs, ctx) =>
      variationOut(
        (await ctx.admin.catalog.variation(
          await ctx.admin.catalog.createVariation(a.productId, variationIn(a.input)),
        ))!,
      ),
    ),
    adminUpdateVariation: guarded(async (a: MutationAdminUpdateVariationArgs, ctx) => {
      await ctx.admin.catalog.updateVariation(a.id, variationIn(a.input));
      return variationOut((await ctx.admin.catalog.variation(a.id))!);
    }),
    adminDeleteVariation: guarded(async (a: MutationAdminDeleteVariationArgs, ctx) => {
      await ctx.admin.catalog.deleteVariation(a.id);
      return true;
    }),
    adminUploadImage: guarded(async (a: MutationAdminUploadImageArgs, ctx) => {
      // Read back from its row: the snapshot only lists images that products or categories use.
      return imageOut(await ctx.admin.catalog.image(await ctx.admin.uploadImage(a.input)));
    }),
    adminAddProductDownload: guarded(async (a: MutationAdminAddProductDownloadArgs, ctx) => {
      await ctx.admin.addDownload(a.input);
      return productById(ctx, a.input.productId);
    }),
    adminRemoveProductDownload: guarded(async (a: MutationAdminRemoveProductDownloadArgs, ctx) => {
      const snap = await ctx.engine.catalog.snapshot();
      const owner = snap.products.find((p) => p.downloads.some((d) => d.id === a.downloadId));
      await ctx.admin.catalog.removeDownload(a.downloadId);
      return productById(ctx, owner!.id);
    }),
    adminCreateCategory: guarded(async (a: MutationAdminCreateCategoryArgs, ctx) => {
      const id = await ctx.admin.catalog.createCategory(categoryIn(a.input));
      const t = (await ctx.engine.catalog.snapshot()).termsById.get(id)!;
      return { ...t, image: imageOut(t.image), translations: translationList(t.translations) };
    }),
    adminUpdateCategory: guarded(async (a: MutationAdminUpdateCategoryArgs, ctx) => {
      await ctx.admin.catalog.updateCategory(a.id, categoryIn(a.input));
      const t = (await ctx.engine.catalog.snapshot()).termsById.get(a.id)!;
      return { ...t, image: imageOut(t.image), translations: translationList(t.translations) };
    }),
    adminDeleteCategory: guarded(async (a: MutationAdminDeleteCategoryArgs, ctx) => {
      await ctx.admin.catalog.deleteCategory(a.id);
      return true;
    }),
    adminUpdateOrderStatus: guarded(async (a: MutationAdminUpdateOrderStatusArgs, ctx) => {
      const i = a.input;
      const r = await ctx.admin.moveOrder({ ...i, status: ORDER_MOVE_IN[i.status] }, actorOf(ctx));
      return { order: orderOut(r.order, ctx), customerNotified: r.mailed };
    }),
    adminAddOrderNote: guarded(async (a: MutationAdminAddOrderNoteArgs, ctx) => {
      await ctx.admin.addOrderNote(a.orderId, a.note, actorOf(ctx));
      return orderOut(await ctx.admin.order(a.orderId), ctx);
    }),
    adminRefundOrder: guarded(async (a: MutationAdminRefundOrderArgs, ctx) => {
      const r = await ctx.admin.refund(a.input, actorOf(ctx));
      return { refund: refundOut(r.refund), order: orderOut(r.order, ctx), replayed: r.replayed };
    }),
    adminCreateCoupon: guarded(async (a: MutationAdminCreateCouponArgs, ctx) =>
      couponOut(await ctx.admin.coupons.create(couponIn(a.input)), ctx),
    ),
    adminUpdateCoupon: guarded(async (a: MutationAdminUpdateCouponArgs, ctx) =>
      couponOut(await ctx.admin.coupons.update(a.id, couponIn(a.input)), ctx),
    ),
    adminExpireCoupon: guarded(async (a: MutationAdminExpireCouponArgs, ctx) =>
      couponOut(await ctx.admin.coupons.expire(a.id), ctx),
    ),
    adminModerateReview: guarded(async (a: MutationAdminModerateReviewArgs, ctx) => {
      const r = await ctx.admin.reviews.moderate(a.id, REVIEW_IN[a.status]);
      if (!r) throw new AdminError(`There is no review with id ${a.id}.`, 'NOT_FOUND');
      return reviewOut(r);
    }),
    adminPublish: guarded(async (_a, ctx) => publishOut(await ctx.admin.publish(actorOf(ctx)))),
    adminRetryMail: guarded(async (a: MutationAdminRetryMailArgs, ctx) => {
      const r = await ctx.admin.retryMail(a.id, actorOf(ctx));
      return { mail: mailOut(r.row, ctx), sent: r.outcome === 'sent' };
    }),
    adminRetryFailedMails: guarded(async (_a, ctx) => ctx.admin.retryFailedMails(actorOf(ctx))),
    adminExportCustomerData: guarded(async (a: MutationAdminExportCustomerDataArgs, ctx) => {
      const r = await ctx.admin.privacy.exportData(a.email, actorOf(ctx));
      return { fileName: r.fileName, contentType: 'application/json; charset=utf-8', json: r.json };
    }),
    adminEraseCustomer: guarded(async (a: MutationAdminEraseCustomerArgs, ctx) =>
      ctx.admin.privacy.erase(a.email, a.confirmEmail, actorOf(ctx)),
    ),
    adminSetMessageAnswered: guarded(async (a: MutationAdminSetMessageAnsweredArgs, ctx) => {
      const m = await ctx.admin.contact.setAnswered(a.id, a.answered);
      if (!m) throw new AdminError(`There is no contact message with id ${a.id}.`, 'NOT_FOUND');
      return messageOut(m);
    }),
  },
} satisfies {
  Query: Record<Exclude<keyof Query, '__typename'>, unknown>;
  Mutation: Record<Exclude<keyof Mutation, '__typename'>, unknown>;
};
