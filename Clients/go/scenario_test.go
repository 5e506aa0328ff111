package payrpc_test

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated"
	"github.com/payrpc/payrpc-go/generated/dotpay"
	"github.com/payrpc/payrpc-go/generated/journal"
	"github.com/payrpc/payrpc-go/generated/northstar"
	"github.com/payrpc/payrpc-go/generated/pbba"
	"github.com/payrpc/payrpc-go/generated/rpc"
	"github.com/payrpc/payrpc-go/generated/sandbox"
	"github.com/payrpc/payrpc-go/generated/tatra"
	"github.com/payrpc/payrpc-go/wire"
)

// recorder passes calls to a client and notes each method with how it ended, so the scenario
// can show that it went through the generated method of every service method.
type recorder struct {
	client *payrpc.Client
	mu     sync.Mutex
	called map[string]error
}

func (r *recorder) Call(ctx context.Context, method string, params, result interface{}, opts ...wire.CallOption) error {
	err := r.client.Call(ctx, method, params, result, opts...)
	r.mu.Lock()
	r.called[method] = err
	r.mu.Unlock()
	return err
}

// serviceMethods are the generated methods of the services (rpc.* has its own tests).
func serviceMethods() []string {
	var out []string
	for _, m := range generated.Methods {
		if len(m) < 4 || m[:4] != "rpc." {
			out = append(out, m)
		}
	}
	return out
}

var (
	jana     = tatra.Contact{FullName: "Jana Nováková", Phones: []string{"+421900123456"}}
	visa     = northstar.Card{Number: "4032036247327321", Expiry: "2199-12"} // the scenario moves the clock to 2100
	opener   = "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"
	payment  = dotpay.PaymentInfo{MerchantID: "10000", Amount: "100.00", TextDescription: "Some description"}
	dotCard  = dotpay.PaymentCardInfo{CardNumber: "4111111111111111", ExpirationMonth: 12, ExpirationYear: 2199, Cvv: "123"}
	purchase = []northstar.PurchaseUnit{{Amount: northstar.AmountWithBreakdown{CurrencyCode: "USD", Value: "10.00"}}}
)

// runScenario calls every service method once, with the params the sandbox documents (the
// Python client's STEPS), each result feeding the later steps. A documented domain error of
// a method is an answer too; any other error fails the test.
func runScenario(t *testing.T, client *payrpc.Client) {
	ctx := testContext(t)
	rec := &recorder{client: client, called: map[string]error{}}
	s := generated.New(rec)
	must := func(step string, err error) {
		t.Helper()
		var domain *wire.DomainError
		if err != nil && !errors.As(err, &domain) {
			t.Fatalf("%s: %v", step, err)
		}
	}
	// sandbox basics
	_, err := s.Sandbox.Delay(ctx, sandbox.DelayParams{Ms: 1})
	must("delay", err)
	must("reset", s.Sandbox.Reset(ctx))
	_, err = s.Sandbox.ClockGet(ctx)
	must("clock.get", err)
	_, err = s.Sandbox.ClockAdvance(ctx, sandbox.ClockAdvanceParams{Seconds: 60})
	must("clock.advance", err)
	clock, err := s.Sandbox.ClockSet(ctx, sandbox.ClockSetParams{Time: time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)})
	must("clock.set", err)
	if clock.Time.Year() != 2100 {
		t.Fatalf("clock.set: the sandbox clock says %v", clock.Time)
	}
	_, err = s.Sandbox.FailNext(ctx, sandbox.FailNextParams{Method: "tatra.getIban", Code: payrpc.Ptr[int64](tatra.CodeNetwork)})
	must("failNext", err)

	// tatra
	must("onFlowStart", s.Tatra.OnFlowStart(ctx))
	setup, err := s.Tatra.FetchSetupData(ctx)
	must("fetchSetupData", err)
	if setup.MaxTransactionAmount.Cmp("5000") != 0 {
		t.Fatalf("fetchSetupData: max amount %s", setup.MaxTransactionAmount)
	}
	_, err = s.Tatra.FetchTopContacts(ctx)
	must("fetchTopContacts", err)
	_, err = s.Tatra.FetchContacts(ctx)
	must("fetchContacts", err)
	_, err = s.Tatra.ExecutePayment(ctx, tatra.ExecutePaymentParams{Amount: "90.05", Contact: &jana, Reference: payrpc.Ptr("Lunch")})
	must("executePayment", err)
	_, err = s.Tatra.AuthorizePayment(ctx, tatra.AuthorizePaymentParams{Pincode: "1234"})
	var outOfService *tatra.BankTemporarilyOutOfServiceError
	if !errors.As(err, &outOfService) || outOfService.Detail.PaymentID == "" {
		t.Fatalf("authorizePayment of 90.05: want BankTemporarilyOutOfServiceError with a payment id, got %v", err)
	}
	_, err = s.Tatra.ResubmitPayment(ctx, tatra.ResubmitPaymentParams{PaymentID: outOfService.Detail.PaymentID})
	must("resubmitPayment", err)
	must("authorize", s.Tatra.Authorize(ctx, tatra.AuthorizeParams{Pincode: "1234"}))
	_, err = s.Tatra.FetchBalance(ctx)
	must("fetchBalance", err)
	_, err = s.Tatra.GetIban(ctx)
	var network *tatra.NetworkError
	if !errors.As(err, &network) {
		t.Fatalf("getIban after failNext: want NetworkError, got %v", err)
	}
	must("onFlowStop", s.Tatra.OnFlowStop(ctx))

	// the call journal (client.Calls() has its own tests)
	flowStop := rpc.CallMatch{Method: payrpc.Ptr("tatra.onFlowStop")}
	_, err = s.Sandbox.CallsList(ctx, sandbox.CallsListParams{Method: flowStop.Method, Limit: payrpc.Ptr[int64](5)})
	must("calls.list", err)
	_, err = s.Sandbox.CallsCount(ctx, sandbox.CallsCountParams{Match: flowStop})
	must("calls.count", err)
	_, err = s.Sandbox.CallsFind(ctx, sandbox.CallsFindParams{Match: flowStop, Limit: payrpc.Ptr[int64](1)})
	must("calls.find", err)
	_, err = s.Sandbox.CallsVerify(ctx, sandbox.CallsVerifyParams{Match: &flowStop, Times: payrpc.Ptr[int64](1)})
	must("calls.verify", err)
	_, err = s.Sandbox.CallsWait(ctx, sandbox.CallsWaitParams{Match: flowStop, TimeoutMs: payrpc.Ptr[int64](1000)})
	must("calls.wait", err)
	_, err = s.Sandbox.CallsClear(ctx)
	must("calls.clear", err)

	must("setContactPermission", s.Sandbox.TatraSetContactPermission(ctx, sandbox.TatraSetContactPermissionParams{Granted: true}))
	must("setActivated", s.Sandbox.TatraSetActivated(ctx, sandbox.TatraSetActivatedParams{Activated: true}))
	must("resetProfile", s.Sandbox.TatraResetProfile(ctx))

	// pbba
	_, err = s.Pbba.IsCFIAppAvailable(ctx)
	must("isCFIAppAvailable", err)
	_, err = s.Sandbox.PbbaSetBankAppsInstalled(ctx, sandbox.PbbaSetBankAppsInstalledParams{Count: 1})
	must("setBankAppsInstalled", err)
	request, err := s.Pbba.SubmitPaymentRequest(ctx, pbba.SubmitPaymentRequestParams{Amount: "10.00", Currency: "GBP", Reference: "Order 1"})
	must("submitPaymentRequest", err)
	popup, err := s.Pbba.ShowPBBAPopup(ctx, pbba.ShowPBBAPopupParams{SecureToken: request.SecureToken, Brn: request.Brn, ExpiryInterval: 300})
	must("showPBBAPopup", err)
	if popup.PopupID == nil {
		t.Fatal("showPBBAPopup: no popupId")
	}
	more, err := s.Sandbox.PbbaTapMoreAbout(ctx, sandbox.PbbaTapMoreAboutParams{PopupID: *popup.PopupID})
	must("tapMoreAbout", err)
	if more.ParentPopupID != *popup.PopupID {
		t.Fatalf("tapMoreAbout: parent %q, want %q", more.ParentPopupID, *popup.PopupID)
	}
	launch, err := s.Sandbox.PbbaTapOpenBankingApp(ctx, sandbox.PbbaTapOpenBankingAppParams{PopupID: *popup.PopupID})
	must("tapOpenBankingApp", err)
	if !launch.Remembered {
		t.Fatal("tapOpenBankingApp: the remembered flag is not set")
	}
	_, err = s.Sandbox.PbbaTapGetCode(ctx, sandbox.PbbaTapGetCodeParams{PopupID: *popup.PopupID})
	must("tapGetCode", err)
	must("dismissPopup", s.Pbba.DismissPopup(ctx, pbba.DismissPopupParams{PopupID: *popup.PopupID}))
	errorPopup, err := s.Pbba.ShowPBBAErrorPopup(ctx, pbba.ShowPBBAErrorPopupParams{ErrorCode: payrpc.Ptr("E1"), ErrorTitle: "Payment failed", ErrorMessage: "Try again"})
	must("showPBBAErrorPopup", err)
	must("tapTryAgain", s.Sandbox.PbbaTapTryAgain(ctx, sandbox.PbbaTapTryAgainParams{PopupID: errorPopup.PopupID}))
	must("closePopup", s.Sandbox.PbbaClosePopup(ctx, sandbox.PbbaClosePopupParams{PopupID: errorPopup.PopupID}))
	_, err = s.Pbba.OpenBankingApp(ctx, pbba.OpenBankingAppParams{SecureToken: request.SecureToken})
	must("openBankingApp", err)
	_, err = s.Pbba.GetPaymentStatus(ctx, pbba.GetPaymentStatusParams{SecureToken: request.SecureToken})
	must("getPaymentStatus", err)
	_, err = s.Sandbox.PbbaApprovePayment(ctx, sandbox.PbbaApprovePaymentParams{SecureToken: &request.SecureToken})
	must("approvePayment", err)
	_, err = s.Sandbox.PbbaDeclinePayment(ctx, sandbox.PbbaDeclinePaymentParams{SecureToken: &request.SecureToken})
	must("declinePayment", err)
	_, err = s.Sandbox.PbbaRegisterExternalRequest(ctx, sandbox.PbbaRegisterExternalRequestParams{
		SecureToken: "distributor-token-1", Brn: "Q4RT7W", Amount: "5.00", Currency: "GBP", Reference: "Outside"})
	must("registerExternalRequest", err)
	_, err = s.Pbba.GetCustomUXConfigurations(ctx, pbba.GetCustomUXConfigurationsParams{Width: 320, Type: pbba.CustomUXTypeMoreAboutAndBankLogos})
	must("getCustomUXConfigurations", err)

	// northstar
	_, err = s.Northstar.Configure(ctx, northstar.ConfigureParams{ClientID: "go-tests"})
	must("configure", err)
	nonce, err := s.Northstar.TokenizeCard(ctx, northstar.TokenizeCardParams{Card: visa})
	must("tokenizeCard", err)
	executed, err := s.Northstar.ExecuteOrder(ctx, northstar.ExecuteOrderParams{OrderRequest: &northstar.OrderRequest{PurchaseUnitList: purchase}, Card: &visa})
	must("executeOrder", err)
	if executed.Status != northstar.OrderStatusCompleted {
		t.Fatalf("executeOrder: status %s", executed.Status)
	}
	order, err := s.Sandbox.NorthstarCreateOrder(ctx, sandbox.NorthstarCreateOrderParams{Intent: northstar.OrderIntentAuthorize, PurchaseUnits: purchase})
	must("createOrder", err)
	_, err = s.Northstar.Validate(ctx, northstar.ValidateParams{OrderID: order.OrderID, Nonce: &nonce.Nonce})
	must("validate", err)
	_, err = s.Sandbox.NorthstarGetOrder(ctx, sandbox.NorthstarGetOrderParams{OrderID: order.OrderID})
	must("getOrder", err)
	_, err = s.Sandbox.NorthstarCompletePayerAction(ctx, sandbox.NorthstarCompletePayerActionParams{OrderID: order.OrderID})
	must("completePayerAction", err)
	_, err = s.Sandbox.NorthstarVoidOrder(ctx, sandbox.NorthstarVoidOrderParams{OrderID: order.OrderID})
	must("voidOrder", err)
	toAuthorize, err := s.Sandbox.NorthstarCreateOrder(ctx, sandbox.NorthstarCreateOrderParams{Intent: northstar.OrderIntentAuthorize, PurchaseUnits: purchase})
	must("createOrder to authorize", err)
	authorized, err := s.Northstar.ExecuteOrder(ctx, northstar.ExecuteOrderParams{OrderID: &toAuthorize.OrderID, Card: &visa})
	must("executeOrder to authorize", err)
	if authorized.Transaction == nil || authorized.Transaction.Kind != northstar.OrderIntentAuthorize {
		t.Fatalf("executeOrder of an AUTHORIZE order: transaction %+v", authorized.Transaction)
	}
	captured, err := s.Northstar.CaptureAuthorization(ctx, northstar.CaptureAuthorizationParams{AuthorizationID: authorized.Transaction.ID})
	must("captureAuthorization", err)
	if !captured.FinalCapture || captured.Amount.Value != "10.00" {
		t.Fatalf("captureAuthorization: %+v", captured)
	}

	// dotpay
	_, err = s.Dotpay.GetLanguageList(ctx)
	must("getLanguageList", err)
	must("setDefaultLanguage", s.Dotpay.SetDefaultLanguage(ctx, dotpay.SetDefaultLanguageParams{Language: "en"}))
	must("setDebugMode", s.Dotpay.SetDebugMode(ctx, dotpay.SetDebugModeParams{DebugMode: true}))
	_, err = s.Dotpay.GetSdkVersion(ctx)
	must("getSdkVersion", err)
	_, err = s.Dotpay.GetCurrencyList(ctx)
	must("getCurrencyList", err)
	must("setShowDetails", s.Dotpay.SetShowDetailsOnSummaryScreen(ctx, dotpay.SetShowDetailsOnSummaryScreenParams{Show: true}))
	must("registerObserver", s.Dotpay.PaymentHistoryRegisterObserver(ctx))
	channels, err := s.Dotpay.GetChannelList(ctx, dotpay.GetChannelListParams{PaymentInfo: payment})
	must("getChannelList", err)
	paid, err := s.Dotpay.Pay(ctx, dotpay.PayParams{PaymentDetails: channels.PaymentDetails, ChannelID: payrpc.Ptr[int64](73)})
	must("pay", err)
	_, err = s.Dotpay.FastPayment(ctx, dotpay.FastPaymentParams{PaymentInfo: payment, PaymentChannelID: 212})
	must("fastPayment", err)
	card, err := s.Dotpay.RegisterPaymentCard(ctx, dotpay.RegisterPaymentCardParams{CardInfo: dotCard})
	must("registerPaymentCard", err)
	_, err = s.Dotpay.PaymentCards(ctx)
	must("paymentCards", err)
	_, err = s.Dotpay.DefaultOneClickPaymentCard(ctx)
	must("defaultOneClickPaymentCard", err)
	_, err = s.Dotpay.SetDefaultOneClickPaymentCard(ctx, dotpay.SetDefaultOneClickPaymentCardParams{CreditCardID: card.CreditCardID})
	must("setDefaultOneClickPaymentCard", err)
	_, err = s.Dotpay.OneClickPayment(ctx, dotpay.OneClickPaymentParams{PaymentInfo: payment})
	must("oneClickPayment", err)
	must("setOneClickEnabled", s.Dotpay.SetOneClickEnabled(ctx, dotpay.SetOneClickEnabledParams{Enabled: true}))
	must("setTreatsCvvAsPassword", s.Dotpay.SetTreatsCvvAsPassword(ctx, dotpay.SetTreatsCvvAsPasswordParams{TreatsCvvAsPassword: true}))
	_, err = s.Dotpay.ConfigureWithExternalCards(ctx, dotpay.ConfigureWithExternalCardsParams{ExternalCards: []dotpay.ExternalPaymentCard{}, CustomerID: "customer-1"})
	must("configureWithExternalCards", err)
	must("setUseInternalCards", s.Dotpay.SetUseInternalCards(ctx, dotpay.SetUseInternalCardsParams{UseInternalCards: true}))
	must("clearExternalCardsData", s.Dotpay.ClearExternalCardsData(ctx))
	must("unregisterPaymentCard", s.Dotpay.UnregisterPaymentCard(ctx, dotpay.UnregisterPaymentCardParams{CreditCardID: card.CreditCardID}))
	must("clearData", s.Dotpay.ClearData(ctx))
	_, err = s.Dotpay.PaymentHistory(ctx)
	must("paymentHistory", err)
	_, err = s.Dotpay.UpdatePaymentSummary(ctx, dotpay.UpdatePaymentSummaryParams{PaymentID: paid.PaymentID})
	must("updatePaymentSummary", err)
	_, err = s.Dotpay.GetSettings(ctx)
	must("getSettings", err)
	must("setShopPin", s.Sandbox.DotpaySetShopPin(ctx, sandbox.DotpaySetShopPinParams{Pin: "Pin2026"}))
	_, err = s.Sandbox.DotpayRefund(ctx, sandbox.DotpayRefundParams{PaymentID: paid.PaymentID, Amount: payrpc.Ptr[payrpc.Decimal]("1.00")})
	must("refund", err)
	_, err = s.Sandbox.DotpayUrlcNotifications(ctx, sandbox.DotpayUrlcNotificationsParams{})
	must("urlcNotifications", err)
	_, err = s.Sandbox.DotpayDeliverUrlc(ctx)
	must("deliverUrlc", err)
	must("didCreateAuthorization", s.Dotpay.MasterpassDidCreateAuthorization(ctx, dotpay.MasterpassDidCreateAuthorizationParams{RequestID: "mpa_none", Successful: true}))
	must("didAuthorizeUser", s.Dotpay.MasterpassDidAuthorizeUser(ctx, dotpay.MasterpassDidAuthorizeUserParams{RequestID: "mpa_none", Error: payrpc.Ptr("wrong PIN")}))
	must("removePaymentSummary", s.Dotpay.RemovePaymentSummary(ctx, dotpay.RemovePaymentSummaryParams{PaymentID: paid.PaymentID}))
	must("unregisterObserver", s.Dotpay.PaymentHistoryUnregisterObserver(ctx))

	// journal
	must("configure", s.Journal.Configure(ctx, journal.ConfigureParams{}))
	_, err = s.Sandbox.JournalSetNextAnswers(ctx, sandbox.JournalSetNextAnswersParams{Answers: []journal.SandboxAnswer{{Outcome: journal.SandboxOutcomeAccept}}})
	must("setNextAnswers", err)
	_, err = s.Journal.OpenURL(ctx, journal.OpenURLParams{URL: opener})
	must("openURL", err)
	handoff, err := s.Journal.Pay(ctx, journal.PayParams{Type: journal.PaymentTypeCreditCard, Amount: payrpc.Ptr[payrpc.Decimal]("10000")})
	must("pay", err)
	if handoff.URL == nil {
		t.Fatal("journal.pay: no url to hand off to")
	}
	callback, err := s.Sandbox.JournalCompletePayment(ctx, sandbox.JournalCompletePaymentParams{URL: *handoff.URL})
	must("completePayment", err)
	entry, err := s.Journal.HandleCallback(ctx, journal.HandleCallbackParams{URL: callback.CallbackURL})
	must("handleCallback", err)
	_, err = s.Journal.List(ctx, journal.ListParams{Limit: payrpc.Ptr[int64](10)})
	must("list", err)
	got, err := s.Journal.Get(ctx, journal.GetParams{EntryID: entry.EntryID})
	must("get", err)
	if got.EntryID != entry.EntryID || got.Amount == nil || got.Amount.Cmp("10000") != 0 {
		t.Fatalf("journal.get: %+v", got)
	}
	_, err = s.Journal.Sync(ctx)
	must("sync", err)

	// Every service method was called, through its generated method.
	var missing []string
	for _, m := range serviceMethods() {
		if _, ok := rec.called[m]; !ok {
			missing = append(missing, m)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("the scenario does not call: %v (add a step to runScenario)", missing)
	}
}

func TestEveryServiceMethodOverStdio(t *testing.T) {
	runScenario(t, spawn(t))
}

func TestEveryServiceMethodOverTCP(t *testing.T) {
	srv := startServer(t)
	client, err := payrpc.DialTCP(testContext(t), srv.tcp)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	runScenario(t, client)
}

func TestEveryServiceMethodOverUnix(t *testing.T) {
	srv := startServer(t)
	client, err := payrpc.DialUnix(testContext(t), srv.unix)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	runScenario(t, client)
}
