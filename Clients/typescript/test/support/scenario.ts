/**
 * Test support: one call of every service method, through the generated proxies, in an order
 * whose params work on a fresh sandbox (the Python client's STEPS in tests/test_live.py).
 */

import path from "node:path";
import { pathToFileURL } from "node:url";
import { DOCUMENT, DomainError, type Client } from "../../src/index.js";
import { CLIENT_DIR } from "./server.js";

type Saved = Record<string, any>;
type Params = Record<string, unknown> | ((saved: Saved) => Record<string, unknown>);

const JANA = { fullName: "Jana Nováková", phones: ["+421900123456"] };
const VISA = { number: "4032036247327321", expiry: "2199-12" }; // the scenario moves the clock to 2100
const OPENER_URL = "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1";
const DOTPAY_PAYMENT = { merchantID: "10000", amount: "100.00", textDescription: "Some description" };
const DOTPAY_CARD = { cardNumber: "4111111111111111", expirationMonth: 12, expirationYear: 2199, cvv: "123" };
const ORDER_REQUEST = { purchaseUnitList: [{ amount: { currencyCode: "USD", value: "10.00" } }] };

/** The scenario: [method, params (or a function of what earlier steps saved), name to save the result as]. */
export const STEPS: Array<[string, Params, string?]> = [
  ["sandbox.delay", { ms: 1 }],
  ["sandbox.reset", {}],
  ["sandbox.clock.get", {}, "clock"],
  ["sandbox.clock.advance", { seconds: 60 }],
  ["sandbox.clock.set", { time: "2100-01-01T00:00:00Z" }],
  ["sandbox.failNext", { method: "tatra.getIban", code: -33006 }],
  ["tatra.onFlowStart", {}],
  ["tatra.fetchSetupData", {}, "setup"],
  ["tatra.fetchTopContacts", {}],
  ["tatra.fetchContacts", {}],
  ["tatra.executePayment", { amount: "90.05", contact: JANA, reference: "Lunch" }],
  ["tatra.authorizePayment", { pincode: "1234" }, "outOfService"],
  ["tatra.resubmitPayment", (s) => ({ paymentId: s["outOfService"].data.paymentId })],
  ["tatra.authorize", { pincode: "1234" }],
  ["tatra.fetchBalance", {}],
  ["tatra.getIban", {}],
  ["tatra.onFlowStop", {}],
  ["sandbox.calls.list", { method: "tatra.onFlowStop", limit: 5 }],
  ["sandbox.calls.count", { match: { method: "tatra.onFlowStop" } }],
  ["sandbox.calls.find", { match: { method: "tatra.onFlowStop" }, limit: 1 }],
  ["sandbox.calls.verify", { match: { method: "tatra.onFlowStop" }, times: 1 }],
  ["sandbox.calls.wait", { match: { method: "tatra.onFlowStop" }, timeoutMs: 1000 }],
  ["sandbox.calls.clear", {}],
  ["sandbox.tatra.setContactPermission", { granted: true }],
  ["sandbox.tatra.setActivated", { activated: true }],
  ["sandbox.tatra.resetProfile", {}],
  ["pbba.isCFIAppAvailable", {}],
  ["sandbox.pbba.setBankAppsInstalled", { count: 1 }],
  ["pbba.submitPaymentRequest", { amount: "10.00", currency: "GBP", reference: "Order 1" }, "request"],
  ["pbba.showPBBAPopup", (s) => ({ secureToken: s["request"].secureToken, brn: s["request"].brn, expiryInterval: 300 }), "popup"],
  ["sandbox.pbba.tapMoreAbout", (s) => ({ popupId: s["popup"].popupId })],
  ["sandbox.pbba.tapOpenBankingApp", (s) => ({ popupId: s["popup"].popupId })],
  ["sandbox.pbba.tapGetCode", (s) => ({ popupId: s["popup"].popupId })],
  ["pbba.dismissPopup", (s) => ({ popupId: s["popup"].popupId })],
  ["pbba.showPBBAErrorPopup", { errorCode: "E1", errorTitle: "Payment failed", errorMessage: "Try again" }, "errorPopup"],
  ["sandbox.pbba.closePopup", (s) => ({ popupId: s["errorPopup"].popupId })],
  ["sandbox.pbba.tapTryAgain", (s) => ({ popupId: s["errorPopup"].popupId })],
  ["pbba.openBankingApp", (s) => ({ secureToken: s["request"].secureToken })],
  ["pbba.getPaymentStatus", (s) => ({ secureToken: s["request"].secureToken })],
  ["sandbox.pbba.approvePayment", (s) => ({ secureToken: s["request"].secureToken })],
  ["sandbox.pbba.declinePayment", (s) => ({ secureToken: s["request"].secureToken })],
  [
    "sandbox.pbba.registerExternalRequest",
    { secureToken: "distributor-token-1", brn: "Q4RT7W", amount: "5.00", currency: "GBP", reference: "Outside" },
  ],
  ["pbba.getCustomUXConfigurations", { width: 320, type: "moreAboutAndBankLogos" }],
  ["northstar.configure", { clientID: "typescript-tests" }],
  ["northstar.tokenizeCard", { card: VISA }, "nonce"],
  ["northstar.executeOrder", { orderRequest: ORDER_REQUEST, card: VISA }],
  ["sandbox.northstar.createOrder", { intent: "AUTHORIZE", purchaseUnits: ORDER_REQUEST.purchaseUnitList }, "order"],
  ["northstar.validate", (s) => ({ orderID: s["order"].orderID, nonce: s["nonce"].nonce })],
  ["sandbox.northstar.getOrder", (s) => ({ orderID: s["order"].orderID })],
  ["sandbox.northstar.completePayerAction", (s) => ({ orderID: s["order"].orderID })],
  ["sandbox.northstar.voidOrder", (s) => ({ orderID: s["order"].orderID })],
  ["sandbox.northstar.createOrder", { intent: "AUTHORIZE", purchaseUnits: ORDER_REQUEST.purchaseUnitList }, "toAuthorize"],
  ["northstar.executeOrder", (s) => ({ orderID: s["toAuthorize"].orderID, card: VISA }), "authorized"],
  ["northstar.captureAuthorization", (s) => ({ authorizationID: s["authorized"].transaction.id })],
  ["dotpay.getLanguageList", {}],
  ["dotpay.setDefaultLanguage", { language: "en" }],
  ["dotpay.setDebugMode", { debugMode: true }],
  ["dotpay.getSdkVersion", {}],
  ["dotpay.getCurrencyList", {}],
  ["dotpay.setShowDetailsOnSummaryScreen", { show: true }],
  ["dotpay.paymentHistory.registerObserver", {}],
  ["dotpay.getChannelList", { paymentInfo: DOTPAY_PAYMENT }, "channels"],
  ["dotpay.pay", (s) => ({ paymentDetails: s["channels"].paymentDetails, channelId: 73 }), "paid"],
  ["dotpay.fastPayment", { paymentInfo: DOTPAY_PAYMENT, paymentChannelId: 212, showingDefaultSummary: false }],
  ["dotpay.registerPaymentCard", { cardInfo: DOTPAY_CARD }, "card"],
  ["dotpay.paymentCards", {}],
  ["dotpay.defaultOneClickPaymentCard", {}],
  ["dotpay.setDefaultOneClickPaymentCard", (s) => ({ creditCardId: s["card"].creditCardId })],
  ["dotpay.oneClickPayment", { paymentInfo: DOTPAY_PAYMENT }],
  ["dotpay.setOneClickEnabled", { enabled: true }],
  ["dotpay.setTreatsCvvAsPassword", { treatsCvvAsPassword: true }],
  ["dotpay.configureWithExternalCards", { externalCards: [], customerId: "customer-1" }],
  ["dotpay.setUseInternalCards", { useInternalCards: true }],
  ["dotpay.clearExternalCardsData", {}],
  ["dotpay.unregisterPaymentCard", (s) => ({ creditCardId: s["card"].creditCardId })],
  ["dotpay.clearData", {}],
  ["dotpay.paymentHistory", {}],
  ["dotpay.updatePaymentSummary", (s) => ({ paymentId: s["paid"].paymentId })],
  ["dotpay.getSettings", {}],
  ["sandbox.dotpay.setShopPin", { pin: "Pin2026" }],
  ["sandbox.dotpay.refund", (s) => ({ paymentId: s["paid"].paymentId, amount: "1.00" })],
  ["sandbox.dotpay.urlcNotifications", {}],
  ["sandbox.dotpay.deliverUrlc", {}],
  ["dotpay.masterpass.didCreateAuthorization", { requestId: "mpa_none", successful: true }],
  ["dotpay.masterpass.didAuthorizeUser", { requestId: "mpa_none", successful: false, error: "wrong PIN" }],
  ["dotpay.removePaymentSummary", (s) => ({ paymentId: s["paid"].paymentId })],
  ["dotpay.paymentHistory.unregisterObserver", {}],
  ["journal.configure", {}],
  ["sandbox.journal.setNextAnswers", { answers: [{ outcome: "accept" }] }],
  ["journal.openURL", { url: OPENER_URL }],
  ["journal.pay", { type: "creditCard", amount: "10000" }, "handoff"],
  ["sandbox.journal.completePayment", (s) => ({ url: s["handoff"].url }), "callback"],
  ["journal.handleCallback", (s) => ({ url: s["callback"].callbackURL }), "entry"],
  ["journal.list", { limit: 10 }],
  ["journal.get", (s) => ({ entryId: s["entry"].entryId })],
  ["journal.sync", {}],
];

interface MethodEntry {
  name: string;
  params: Array<{ name: string }>;
}

/** The methods of the bundled document. */
export function documentMethods(): MethodEntry[] {
  return (DOCUMENT as { methods: MethodEntry[] }).methods;
}

/** Every service method (not `rpc.*` nor `$/...`). */
export function serviceMethods(): string[] {
  return documentMethods().map((m) => m.name).filter((n) => n.includes(".") && !n.startsWith("rpc.") && !n.startsWith("$/"));
}

/** The generator's naming (a method's member on its proxy), so the test calls what the generator wrote. */
async function memberName(rest: string): Promise<string> {
  const names = (await import(pathToFileURL(path.join(CLIENT_DIR, "tools", "codegen", "names.mjs")).href)) as { memberName(rest: string): string };
  return names.memberName(rest);
}

/** Calls `method` through its generated proxy: one param positional, several as an object, none without params. */
export async function proxyCall(client: Client, method: string, params: Record<string, unknown>): Promise<unknown> {
  const dot = method.indexOf(".");
  const proxy = (client as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>)[method.slice(0, dot)];
  const member = await memberName(method.slice(dot + 1));
  const fn = proxy?.[member];
  if (typeof fn !== "function") throw new Error(`no proxy member ${method.slice(0, dot)}.${member} for ${method}`);
  const descriptors = documentMethods().find((m) => m.name === method)?.params ?? [];
  if (descriptors.length === 0) return fn.call(proxy);
  if (descriptors.length === 1) return fn.call(proxy, params[descriptors[0]!.name]);
  return fn.call(proxy, params);
}

/** Runs the scenario; returns each method's result, or its domain error (a documented answer too). */
export async function runScenario(client: Client): Promise<Map<string, unknown>> {
  const saved: Saved = {};
  const outcomes = new Map<string, unknown>();
  for (const [method, params, save] of STEPS) {
    const args = typeof params === "function" ? params(saved) : params;
    let result: unknown;
    try {
      result = await proxyCall(client, method, args);
    } catch (error) {
      if (!(error instanceof DomainError)) throw new Error(`${method}: ${String(error)}`, { cause: error });
      result = error;
    }
    if (save) saved[save] = result;
    outcomes.set(method, result);
  }
  return outcomes;
}
