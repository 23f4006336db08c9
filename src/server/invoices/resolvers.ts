/** An order's invoices and credit notes as the Order type shows them. */
import { moneyField } from '../cart/resolvers.ts';
import type { GraphQLContext } from '../context.ts';
import type { OrderRow } from '../orders/service.ts';
import type { InvoiceRow } from './service.ts';

type Ctx = GraphQLContext;

export const invoiceResolvers = {
  OrderInvoice: {
    kind: (i: InvoiceRow) => (i.kind === 'invoice' ? 'INVOICE' : 'CREDIT_NOTE'),
    number: (i: InvoiceRow) => i.number,
    date: (i: InvoiceRow) => i.issueDate,
    total: moneyField((i: InvoiceRow) => i.grossCents),
    downloadUrl: (i: InvoiceRow, _: unknown, ctx: Ctx) => ctx.invoices.urlFor(i),
  },
  Order: {
    invoices: async (o: OrderRow, _: unknown, ctx: Ctx) => ctx.invoices.listForOrder(o.id),
  },
};
