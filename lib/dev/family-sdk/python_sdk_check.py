"""
Runs the family's official Python SDK (paddle-python-sdk) against a running server of ours, with
the host root as its base URL, and checks that every answer parses into the SDK's entities.

It is a developer's check, not part of `npm test`: the SDK is not on the npm registry, and CI has
no Python package index. How to run it: docs/family-conformance.md. In short:

    PYTHONPATH=<folder holding paddle_billing> BILLING_URL=http://localhost:3000 \
      BILLING_API_KEY=svc_apikey_sdbx_... python3 lib/dev/family-sdk/python_sdk_check.py

Each step prints "ok" or the exception; the exit code is the number of failed steps (0: all
parsed). Webhook payloads are checked through the SDK's own event parsing (`events.list`,
`notifications.list`): an event whose `data` the SDK cannot read becomes an UndefinedEntity, which
the SDK only prints; here it fails the step.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import requests

from paddle_billing import Client, Options
from paddle_billing.Entities.Shared import (
    CountryCode,
    CurrencyCode,
    CustomData,
    Duration,
    Interval,
    Money,
    TaxCategory,
)
from paddle_billing.Entities.Discounts import DiscountType
from paddle_billing.Entities.Events import EventTypeName
from paddle_billing.Entities.NotificationSettings import NotificationSettingTrafficSource, NotificationSettingType
from paddle_billing.Entities.Reports import TransactionsReportType
from paddle_billing.Entities.Shared.Action import Action
from paddle_billing.Entities.Subscriptions import SubscriptionEffectiveFrom
from paddle_billing.Notifications.Entities.UndefinedEntity import UndefinedEntity
from paddle_billing.Resources.Addresses.Operations import CreateAddress, UpdateAddress
from paddle_billing.Resources.Adjustments.Operations import CreateAdjustment, ListAdjustments
from paddle_billing.Resources.Businesses.Operations import CreateBusiness, UpdateBusiness
from paddle_billing.Resources.ClientTokens.Operations import CreateClientToken
from paddle_billing.Resources.Customers.Operations import CreateCustomer, ListCustomers, UpdateCustomer
from paddle_billing.Resources.Discounts.Operations import CreateDiscount, UpdateDiscount
from paddle_billing.Resources.DiscountGroups.Operations import CreateDiscountGroup
from paddle_billing.Resources.Events.Operations import ListEvents
from paddle_billing.Resources.Metrics.Operations import GetMetrics
from paddle_billing.Resources.NotificationSettings.Operations import CreateNotificationSetting
from paddle_billing.Resources.Notifications.Operations import ListNotifications
from paddle_billing.Resources.Prices.Operations import CreatePrice, UpdatePrice
from paddle_billing.Resources.PricingPreviews.Operations import PreviewPrice
from paddle_billing.Entities.PricingPreviews.PricePreviewItem import PricePreviewItem
from paddle_billing.Resources.Products.Operations import CreateProduct, UpdateProduct
from paddle_billing.Resources.Reports.Operations import CreateTransactionsReport
from paddle_billing.Resources.Shared.Operations.List.Pager import Pager
from paddle_billing.Resources.Simulations.Operations import CreateSimulation
from paddle_billing.Resources.Subscriptions.Operations import (
    CancelSubscription,
    CreateOneTimeCharge,
    PauseSubscription,
    PreviewOneTimeCharge,
    ResumeSubscription,
)
from paddle_billing.Resources.Subscriptions.Operations.Charge import SubscriptionChargeItem
from paddle_billing.Resources.Transactions.Operations import (
    CreateTransaction,
    ListTransactions,
    PreviewTransactionByAddress,
    ReviseTransaction,
    UpdateTransaction,
)
from paddle_billing.Resources.Transactions.Operations.Create import TransactionCreateItem
from paddle_billing.Resources.Transactions.Operations.List.Includes import Includes as TransactionIncludes
from paddle_billing.Resources.Transactions.Operations.Preview import TransactionItemPreviewWithPriceId
from paddle_billing.Resources.Transactions.Operations.Revise import ReviseCustomer
from paddle_billing.Entities.Shared.AddressPreview import AddressPreview
from paddle_billing.Resources.Adjustments.Operations.Create.AdjustmentItem import AdjustmentItem
from paddle_billing.Entities.Shared.AdjustmentType import AdjustmentType

BASE = os.environ.get("BILLING_URL", "http://localhost:3000").rstrip("/")
KEY = os.environ["BILLING_API_KEY"]
PAYING_CARD = {"cardholder_name": "Ada Buyer", "number": "4242 4242 4242 4242", "expiry": "12/39", "cvc": "123"}


@dataclass
class Root:
    """What the SDK reads of its Environment: the base URL (here the host root)."""

    base_url: str


client = Client(KEY, options=Options(environment=Root(BASE)))  # type: ignore[arg-type]


def keep_last_answer(response, *args, **kwargs):
    client.client.last_answer = response


# The SDK's session sets its own response hook (a function, not a list): keep it, and ours.
sdk_hook = client.client.hooks["response"]
client.client.hooks["response"] = [keep_last_answer, *(sdk_hook if isinstance(sdk_hook, list) else [sdk_hook])]
failures: list[str] = []
state: dict[str, object] = {}


def step(name: str, fn):
    try:
        result = fn()
        print(f"ok    {name}")
        return result
    except Exception:  # noqa: BLE001 - every failure is reported, then the run goes on
        failures.append(name)
        print(f"FAIL  {name}")
        traceback.print_exc(limit=3)
        answer = getattr(client.client, "last_answer", None)
        if answer is not None and answer.status_code >= 400:
            print(f"      the server answered {answer.status_code}: {answer.text[:600]}")
        return None


def parsed(entity):
    """Fails on an entity the SDK could not read (it returns an UndefinedEntity and only prints)."""
    if isinstance(entity, UndefinedEntity):
        raise AssertionError(f"the SDK could not parse: {str(entity.to_dict())[:300]}")
    return entity


def every_page(collection, at_least=1):
    items = [item for item in collection]
    if len(items) < at_least:
        raise AssertionError(f"expected at least {at_least} items, got {len(items)}")
    return items


def stamp() -> str:
    return str(int(time.time() * 1000))


def pay_at_checkout(transaction_id: str) -> None:
    """The hosted checkout's public endpoint, as the checkout page pays (sandbox test card)."""
    answer = requests.post(f"{BASE}/api/checkout/{transaction_id}/payments", json=PAYING_CARD, timeout=30)
    if answer.status_code != 201:
        raise AssertionError(f"checkout payment answered {answer.status_code}: {answer.text[:300]}")


# --- catalogue
product = step("products.create", lambda: client.products.create(CreateProduct(name=f"Py plan {stamp()}", tax_category=TaxCategory.Standard)))
step("products.get", lambda: client.products.get(product.id))
step("products.update", lambda: client.products.update(product.id, UpdateProduct(description="From Python")))
step("products.list", lambda: every_page(client.products.list()))
price = step(
    "prices.create (monthly)",
    lambda: client.prices.create(
        CreatePrice(
            description="Monthly",
            product_id=product.id,
            unit_price=Money("3000", CurrencyCode.USD),
            billing_cycle=Duration(Interval.Month, 1),
        )
    ),
)
one_off = step(
    "prices.create (one-time)",
    lambda: client.prices.create(CreatePrice(description="Setup", product_id=product.id, unit_price=Money("1500", CurrencyCode.USD))),
)
step("prices.get", lambda: client.prices.get(price.id))
step("prices.update", lambda: client.prices.update(price.id, UpdatePrice(description="Monthly plan")))
step("prices.list", lambda: every_page(client.prices.list()))
group = step("discount_groups.create", lambda: client.discount_groups.create(CreateDiscountGroup(name=f"Py group {stamp()}")))
step("discount_groups.list", lambda: every_page(client.discount_groups.list()))
discount = step(
    "discounts.create (percentage, with the currency_code the SDK always sends)",
    lambda: client.discounts.create(
        CreateDiscount(
            amount="10",
            description="Ten percent",
            type=DiscountType.Percentage,
            enabled_for_checkout=False,
            recur=False,
            currency_code=CurrencyCode.USD,
        )
    ),
)
step("discounts.get", lambda: client.discounts.get(discount.id))
step("discounts.update", lambda: client.discounts.update(discount.id, UpdateDiscount(description="Ten percent off")))
step("discounts.list", lambda: every_page(client.discounts.list()))

# --- customers
customer = step("customers.create", lambda: client.customers.create(CreateCustomer(email=f"py-{stamp()}@example.com", name="Ada Py")))
step("customers.get", lambda: client.customers.get(customer.id))
step("customers.update", lambda: client.customers.update(customer.id, UpdateCustomer(name="Ada Python")))
step("customers.list across pages", lambda: every_page(client.customers.list(ListCustomers(Pager(per_page=1)))))
address = step("addresses.create", lambda: client.addresses.create(customer.id, CreateAddress(country_code=CountryCode.US, postal_code="10001")))
step("addresses.get", lambda: client.addresses.get(customer.id, address.id))
step("addresses.update", lambda: client.addresses.update(customer.id, address.id, UpdateAddress(city="New York")))
step("addresses.list", lambda: every_page(client.addresses.list(customer.id)))
business = step("businesses.create", lambda: client.businesses.create(customer.id, CreateBusiness(name="Py Ltd")))
step("businesses.get", lambda: client.businesses.get(customer.id, business.id))
step("businesses.update", lambda: client.businesses.update(customer.id, business.id, UpdateBusiness(company_number="123")))
step("businesses.list", lambda: every_page(client.businesses.list(customer.id)))
step("customers.credit_balances", lambda: client.customers.credit_balances(customer.id))
step("customer_portal_sessions.create", lambda: client.customer_portal_sessions.create(customer.id, []))

# --- transactions
step(
    "pricing_previews.preview_prices",
    lambda: client.pricing_previews.preview_prices(PreviewPrice(items=[PricePreviewItem(price_id=price.id, quantity=1)], address=AddressPreview(postal_code="10001", country_code=CountryCode.US))),
)
step(
    "transactions.preview",
    lambda: client.transactions.preview(
        PreviewTransactionByAddress(address=AddressPreview(postal_code="10001", country_code=CountryCode.US), items=[TransactionItemPreviewWithPriceId(price_id=price.id, quantity=1)])
    ),
)
subscribed = step(
    "transactions.create (recurring)",
    lambda: client.transactions.create(CreateTransaction(items=[TransactionCreateItem(price.id, 1)], customer_id=customer.id, address_id=address.id)),
)
one_time = step("transactions.create (one-time, with a discount)", lambda: client.transactions.create(CreateTransaction(items=[TransactionCreateItem(one_off.id, 2)], customer_id=customer.id, address_id=address.id, discount_id=discount.id)))
step("pay the recurring transaction at the checkout", lambda: pay_at_checkout(subscribed.id))
completed = step("transactions.get (completed)", lambda: client.transactions.get(subscribed.id))
step(
    "transactions.get with every include",
    lambda: client.transactions.get(
        subscribed.id,
        includes=[getattr(TransactionIncludes, name) for name in ['Address', 'Adjustment', 'AdjustmentsTotals', 'AvailablePaymentMethods', 'Business', 'Customer', 'Discount']],
    ),
)
step("transactions.list across pages", lambda: every_page(client.transactions.list(ListTransactions(Pager(per_page=1))), at_least=2))
step("transactions.update (custom_data)", lambda: client.transactions.update(one_time.id, UpdateTransaction(custom_data=CustomData({"from": "python"}))))
step("transactions.get_invoice_pdf", lambda: client.transactions.get_invoice_pdf(subscribed.id))
step("transactions.revise", lambda: client.transactions.revise(subscribed.id, ReviseTransaction(customer=ReviseCustomer(name="Ada Revised"))))
adjustment = step(
    "adjustments.create (partial refund)",
    lambda: client.adjustments.create(
        CreateAdjustment(
            action=Action.Refund,
            items=[AdjustmentItem(completed.details.lineItems[0].id, AdjustmentType.Partial, "100")],
            reason="Python check",
            transaction_id=subscribed.id,
        )
    ),
)
step("transactions.get (after an adjustment)", lambda: client.transactions.get(subscribed.id))
step("adjustments.list", lambda: every_page(client.adjustments.list(ListAdjustments())))

# --- subscriptions
subscription_id = completed.subscription_id if completed else None
step("subscriptions.get", lambda: client.subscriptions.get(subscription_id))
step("subscriptions.list", lambda: every_page(client.subscriptions.list()))
step("subscriptions.get_payment_method_change_transaction", lambda: client.subscriptions.get_payment_method_change_transaction(subscription_id))
charge = CreateOneTimeCharge(effective_from=SubscriptionEffectiveFrom.Immediately, items=[SubscriptionChargeItem(one_off.id, 1)])
step("subscriptions.preview_one_time_charge", lambda: client.subscriptions.preview_one_time_charge(subscription_id, PreviewOneTimeCharge(effective_from=SubscriptionEffectiveFrom.Immediately, items=[SubscriptionChargeItem(one_off.id, 1)])))
step("subscriptions.create_one_time_charge", lambda: client.subscriptions.create_one_time_charge(subscription_id, charge))
step("subscriptions.pause", lambda: client.subscriptions.pause(subscription_id, PauseSubscription(effective_from=SubscriptionEffectiveFrom.Immediately)))
step("subscriptions.resume", lambda: client.subscriptions.resume(subscription_id, ResumeSubscription(effective_from=SubscriptionEffectiveFrom.Immediately)))
step("subscriptions.cancel", lambda: client.subscriptions.cancel(subscription_id, CancelSubscription(effective_from=SubscriptionEffectiveFrom.Immediately)))
step("payment_methods.list", lambda: client.payment_methods.list(customer.id))

# --- notifications, events, simulations
setting = step(
    "notification_settings.create",
    lambda: client.notification_settings.create(
        CreateNotificationSetting(
            description="Python check",
            destination="https://example.com/hooks",
            subscribed_events=[EventTypeName.CustomerCreated, EventTypeName.TransactionCompleted],
            type=NotificationSettingType.Url,
            include_sensitive_fields=False,
            traffic_source=NotificationSettingTrafficSource.All,
        )
    ),
)
step("notification_settings.list", lambda: client.notification_settings.list())
step("notification_settings.get", lambda: client.notification_settings.get(setting.id))
step("event_types.list", lambda: every_page(client.event_types.list()))


def events_parse():
    events = every_page(client.events.list(ListEvents(Pager(per_page=50))), at_least=10)
    types = set()
    for event in events:
        parsed(event.data)
        types.add(str(event.event_type))
    print(f"      {len(events)} events parsed, types: {sorted(types)}")


step("events.list (every webhook payload parses into its entity)", events_parse)
step("notifications.list", lambda: [parsed(n) for n in client.notifications.list(ListNotifications())])
step("simulation_types.list", lambda: every_page(client.simulation_types.list()))
simulation = step(
    "simulations.create",
    lambda: client.simulations.create(CreateSimulation(notification_setting_id=setting.id, type=EventTypeName.CustomerCreated, name="Python check")),
)
step("simulations.list", lambda: every_page(client.simulations.list()))
run = step("simulation_runs.create", lambda: client.simulation_runs.create(simulation.id))
step("simulation_runs.list", lambda: every_page(client.simulation_runs.list(simulation.id)))
step("simulation_run_events.list", lambda: client.simulation_run_events.list(simulation.id, run.id))

# --- the rest
step("client_tokens.create", lambda: client.client_tokens.create(CreateClientToken(name="Python check")))
step("client_tokens.list", lambda: every_page(client.client_tokens.list()))
step("reports.create", lambda: client.reports.create(CreateTransactionsReport(type=TransactionsReportType.Transactions)))
step("reports.list", lambda: every_page(client.reports.list()))
today = datetime.now(timezone.utc).date()
metrics = GetMetrics(date_from=str(today - timedelta(days=7)), date_to=str(today + timedelta(days=1)))
for name in [
    "get_monthly_recurring_revenue",
    "get_monthly_recurring_revenue_change",
    "get_active_subscribers",
    "get_revenue",
    "get_refunds",
    "get_chargebacks",
    "get_checkout_conversion",
]:
    step(f"metrics.{name}", lambda name=name: getattr(client.metrics, name)(metrics))
step("ip_addresses.get_ip_addresses", lambda: client.ip_addresses.get_ip_addresses())
step("checkout_domains.list", lambda: client.checkout_domains.list())

print(f"\n{len(failures)} failed" + (f": {', '.join(failures)}" if failures else ""))
sys.exit(len(failures))
