import Foundation
import PayRPCCore
import PayRPCJSON
import Testing

@testable import PayRPCCalls

/// Matching and verification over entries made by hand: what holds, what fails, and what a failure
/// says about the nearest misses.
@Suite struct CallExpectationTests {
    static func entry(
        _ id: String, _ method: String, params: JSONValue? = nil, error: JSONValue? = nil, at seconds: Double = 0,
        kind: CallEntryKind = .call
    ) -> CallEntry {
        var entry = CallEntry(
            id: id, kind: kind, at: Date(timeIntervalSince1970: seconds), wallAt: Date(timeIntervalSince1970: seconds))
        entry.method = method
        entry.params = params
        entry.error = error
        return entry
    }

    static let journal = [
        entry("1.1", "tatra.executePayment", params: ["amount": "12.50"], at: 1),
        entry("1.2", "tatra.authorizePayment", params: ["pincode": "***"], error: ["code": -33007], at: 2),
        entry("1.3", "tatra.authorizePayment", params: ["pincode": "***"], at: 3),
        entry("p.1", "tatra.onPinRequired", at: 3, kind: .push),
    ]

    func verify(_ params: CallVerifyParams) throws -> CallExpectation.Outcome {
        try CallExpectation(params, router: nil).check(Self.journal)
    }

    @Test func countsHoldOrSayHowManyMatchedAndWhereTheNearestMissDiffered() throws {
        let match = CallMatch(method: "tatra.authorizePayment", params: [CallCondition(pointer: "/pincode", present: true)])
        guard case .held(let ids) = try verify(CallVerifyParams(match: match, times: 2)) else {
            Issue.record("two PIN calls")
            return
        }
        #expect(ids == ["1.2", "1.3"])
        guard case .held = try verify(CallVerifyParams(match: CallMatch(method: "tatra.authorizePayment", failed: false)))
        else {
            Issue.record("one that succeeded")
            return
        }
        let wrong = CallMatch(method: "tatra.executePayment", params: [CallCondition(pointer: "/amount", equals: "99.00")])
        guard case .failed(let failure) = try verify(CallVerifyParams(match: wrong)) else {
            Issue.record("no payment of 99.00")
            return
        }
        #expect(failure.expected == "exactly 1")
        #expect(failure.matched == 0)
        #expect(failure.nearestMisses.first?.entry == "1.1")
        #expect(
            failure.nearestMisses.first?.differences == [
                CallDifference(pointer: "/params/amount", expected: "equals \"99.00\"", actual: "12.50")
            ])
        #expect(failure.nearestMisses.count == 3)
        #expect(failure.summary("tatra.executePayment").contains("/params/amount (expected equals \"99.00\", found \"12.50\")"))
    }

    @Test func aSequenceHoldsInArrivalOrderWithOthersBetweenAndNamesTheStepThatFailed() throws {
        let pay = CallMatch(method: "tatra.executePayment"), pin = CallMatch(method: "tatra.authorizePayment")
        guard case .held(let ids) = try verify(CallVerifyParams(sequence: [pay, pin, CallMatch(kind: .push)])) else {
            Issue.record("in order")
            return
        }
        #expect(ids == ["1.1", "1.2", "p.1"])
        guard case .failed(let failure) = try verify(CallVerifyParams(sequence: [pin, pay])) else {
            Issue.record("the payment came first")
            return
        }
        #expect(failure.step == 1)
        #expect(failure.matched == 1)
        #expect(failure.entries == ["1.2"])
    }

    @Test(arguments: [
        (CallVerifyParams(), ""),
        (CallVerifyParams(match: CallMatch(), sequence: [CallMatch()]), "/sequence"),
        (CallVerifyParams(times: 1, sequence: [CallMatch()]), "/times"),
        (CallVerifyParams(match: CallMatch(), times: 1, atLeast: 1), "/times"),
        (CallVerifyParams(match: CallMatch(), atLeast: 3, atMost: 2), "/atLeast"),
        (CallVerifyParams(match: CallMatch(params: [CallCondition(pointer: "/a")])), "/match/params/0"),
        (CallVerifyParams(match: CallMatch(params: [CallCondition(pointer: "/a", absent: false)])), "/match/params/0/absent"),
        (CallVerifyParams(match: CallMatch(entry: [CallCondition(pointer: "/a", pattern: "[")])), "/match/entry/0/pattern"),
    ])
    func badInputIsInvalidParamsNamingThePointer(params: CallVerifyParams, pointer: String) {
        do {
            _ = try CallExpectation(params, router: nil)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidParams)
            #expect(error.data?.value(at: "/violations/0/pointer") == .string(pointer))
        }
    }

    @Test func conditionsCompareJSONByValueAndPatternsSearch() throws {
        let entry = Self.entry("1.9", "x.y", params: ["n": .number("1.0"), "text": "Invoice 7", "list": [1, 2]])
        func holds(_ condition: CallCondition) throws -> Bool {
            try CallMatcher(CallMatch(params: [condition]), at: "/match", router: nil).matches(entry)
        }
        #expect(try holds(CallCondition(pointer: "/n", equals: 1)))
        #expect(try holds(CallCondition(pointer: "/list", equals: [1, 2])))
        #expect(try !holds(CallCondition(pointer: "/list", equals: [2, 1])))
        #expect(try holds(CallCondition(pointer: "/text", pattern: "voice [0-9]")))
        #expect(try !holds(CallCondition(pointer: "/n", pattern: "1")))
        #expect(try holds(CallCondition(pointer: "/missing", absent: true)))
        #expect(try !holds(CallCondition(pointer: "/text", absent: true)))
        #expect(try holds(CallCondition(pointer: "/list/1", present: true)))
    }
}
