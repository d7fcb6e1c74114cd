import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../kernel/context';
import { PaymentView } from './payments.types';

/**
 * The page where a payment is paid goes to its payer only: the beneficiary (a learner a guardian
 * buys for) and admins read the payment without it, so that only the person who chose to pay can.
 */
@Resolver(() => PaymentView)
export class PaymentViewFields {
  @FieldResolver(() => String, { nullable: true })
  redirectUrl(@Root() payment: PaymentView, @Ctx() ctx: Context): string | null {
    return ctx.auth.userId === payment.payerId ? payment.redirectUrl : null;
  }
}
