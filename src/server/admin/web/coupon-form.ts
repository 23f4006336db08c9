/**
 * The coupon form: every coupon setting read from the posted fields into admin-endpoint input. Amounts
 * are typed as the operator thinks of them — "10" for 10 % (stored as hundredths of a percent, 1000) or
 * "5.00" euros (cents) — and shown back the same way.
 */
import type { AdminCouponFieldsFragment } from '../../../graphql/generated/admin-operations.ts';
import type { AdminCouponInput } from '../../../graphql/generated/admin-schema.ts';
import { centsToDecimal } from '../../../lib/money.ts';
import { eurosInput, type FormFields } from './forms.ts';

const TYPES = ['PERCENT', 'FIXED_CART', 'FIXED_PRODUCT'] as const;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EMAIL = /^(\*|[^\s@,]+)@[^\s@,]+$/;

export function couponInput(f: FormFields): AdminCouponInput | null {
  const code = f.text('code', 'Code', { required: true, max: 50 });
  if (code && !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(code))
    f.errors.code ??= 'The code may contain letters, digits, hyphens and underscores only.';
  const description = f.text('description', 'Description', { max: 1000 });
  const discountType = f.choice('discountType', 'Discount type', TYPES, { required: true });
  // Percent: up to two decimals of a percent, the same parser as euros (both are hundredths).
  const amountCents = f.money('amount', 'Amount', {
    required: true,
    min: 1,
    max: discountType === 'PERCENT' ? 10_000 : 100_000_000,
  });
  const expiresAt = f.date('expiresAt', 'Expiry date');
  const usageLimit = f.int('usageLimit', 'Usage limit', { min: 1, max: 10_000_000 });
  const usageLimitPerUser = f.int('usageLimitPerUser', 'Uses per customer', { min: 1, max: 10_000_000 });
  const minimumCents = f.money('minimum', 'Minimum spend', { max: 100_000_000 });
  const maximumCents = f.money('maximum', 'Maximum spend', { max: 100_000_000 });
  if (typeof minimumCents === 'number' && typeof maximumCents === 'number' && minimumCents > maximumCents)
    f.errors.maximum ??= 'The maximum spend must not be below the minimum spend.';
  const productSlugs = f.list('productSlugs', 'Products', SLUG);
  const excludedProductSlugs = f.list('excludedProductSlugs', 'Excluded products', SLUG);
  const categorySlugs = f.list('categorySlugs', 'Categories', SLUG);
  const excludedCategorySlugs = f.list('excludedCategorySlugs', 'Excluded categories', SLUG);
  const emailRestrictions = f.list('emailRestrictions', 'Allowed e-mails', EMAIL);
  if (!f.ok) return null;
  return {
    code,
    description,
    discountType,
    amountCents,
    expiresAt,
    usageLimit,
    usageLimitPerUser,
    minimumCents,
    maximumCents,
    individualUse: f.checked('individualUse'),
    freeShipping: f.checked('freeShipping'),
    excludeSaleItems: f.checked('excludeSaleItems'),
    productSlugs,
    excludedProductSlugs,
    categorySlugs,
    excludedCategorySlugs,
    emailRestrictions,
  };
}

export type CouponValues = Record<string, string | boolean>;

/** The settings the form shows: a coupon as the admin endpoint returns it, or the input this form made of one. */
type ShownCoupon = { [K in ShownSetting]?: AdminCouponFieldsFragment[K] | null };
type ShownSetting = keyof Pick<
  AdminCouponFieldsFragment,
  | 'code'
  | 'description'
  | 'discountType'
  | 'amountCents'
  | 'expiresAt'
  | 'usageLimit'
  | 'usageLimitPerUser'
  | 'minimumCents'
  | 'maximumCents'
  | 'individualUse'
  | 'freeShipping'
  | 'excludeSaleItems'
  | 'productSlugs'
  | 'excludedProductSlugs'
  | 'categorySlugs'
  | 'excludedCategorySlugs'
  | 'emailRestrictions'
>;

/** The form's values: a stored coupon, what was posted, or a new coupon's defaults. */
export function couponValues(coupon: ShownCoupon | null, posted: URLSearchParams | null): CouponValues {
  if (posted) {
    const v: CouponValues = Object.fromEntries([...posted.entries()].filter(([k]) => k !== 'intent'));
    for (const k of ['individualUse', 'freeShipping', 'excludeSaleItems']) v[k] = posted.get(k) === 'on';
    return v;
  }
  if (!coupon) return { discountType: 'PERCENT', individualUse: false, freeShipping: false, excludeSaleItems: false };
  const join = (a: string[] | null | undefined) => (a ?? []).join(', ');
  const amountCents = coupon.amountCents ?? 0;
  return {
    code: coupon.code ?? '',
    description: coupon.description ?? '',
    discountType: coupon.discountType ?? 'PERCENT',
    // 1000 → "10" (percent), 1050 → "10.5"; euros keep their cents ("5.00").
    amount:
      coupon.discountType === 'PERCENT'
        ? centsToDecimal(amountCents)
            .replace(/\.00$/, '')
            .replace(/(\.\d)0$/, '$1')
        : centsToDecimal(amountCents),
    expiresAt: coupon.expiresAt ? String(coupon.expiresAt).slice(0, 10) : '',
    usageLimit: coupon.usageLimit == null ? '' : String(coupon.usageLimit),
    usageLimitPerUser: coupon.usageLimitPerUser == null ? '' : String(coupon.usageLimitPerUser),
    minimum: eurosInput(coupon.minimumCents),
    maximum: eurosInput(coupon.maximumCents),
    individualUse: coupon.individualUse ?? false,
    freeShipping: coupon.freeShipping ?? false,
    excludeSaleItems: coupon.excludeSaleItems ?? false,
    productSlugs: join(coupon.productSlugs),
    excludedProductSlugs: join(coupon.excludedProductSlugs),
    categorySlugs: join(coupon.categorySlugs),
    excludedCategorySlugs: join(coupon.excludedCategorySlugs),
    emailRestrictions: join(coupon.emailRestrictions),
  };
}
