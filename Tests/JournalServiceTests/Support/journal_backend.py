#!/usr/bin/env python3
"""A stand-in for the journal's Web API (POST /payments/, POST /journals/), for payrpc's tests.

Like the document's mock server it accepts any body; unlike it, it can fail on demand and it
records every request. It dedupes by Idempotency-Key: a key seen before gets the same answer and
is not stored twice. Prints its port on the first line of stdout.

Control (JSON bodies): POST /_control {"fail": N, "mode": "drop"|"500"|"hang", "message": "..."}
fails the next N payment/journal POSTs; {"failModes": ["drop", "hang", ...]} fails the next ones
in these modes, one each, in order (before "fail"); {"failEvery": K, "mode": ...} fails every K-th one;
{"paymentAnswer": {...}} answers that body (status 200) to every new /payments/ POST instead of
{"id": "pay_N"} ({"paymentAnswer": null} goes back); {"reset": true} clears everything.
GET /_requests answers every recorded request (GET /_requests?atLeast=N first waits, up to 30 s,
until N have come); GET /_payments answers the stored payments by key.
"""
import json
import threading
import time

from http_test_server import Handler, serve

lock = threading.Lock()
arrived = threading.Condition(lock)
state = {"fail": 0, "failModes": [], "failEvery": 0, "count": 0, "mode": "drop", "message": "backend failure",
         "requests": [], "payments": {}, "journals": {}, "next": 1, "paymentAnswer": None}


class Journal(Handler):
    def do_GET(self):
        with lock:
            if self.path.startswith("/_requests"):
                wanted = int(self.path.partition("atLeast=")[2] or "0")
                arrived.wait_for(lambda: len(state["requests"]) >= wanted, timeout=30)
                return self.answer(200, state["requests"])
            if self.path == "/_payments":
                return self.answer(200, {"payments": state["payments"], "journals": state["journals"]})
        self.answer(404, {"message": "not found"})

    def control(self, command):
        with lock:
            if command.get("reset"):
                state.update({"fail": 0, "failModes": [], "failEvery": 0, "count": 0, "requests": [], "payments": {},
                              "journals": {}, "paymentAnswer": None})
            for key in ("fail", "failModes", "failEvery", "mode", "message", "paymentAnswer"):
                if key in command:
                    state[key] = command[key]

    def post(self, raw):
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"raw": raw.decode("utf-8", "replace")}
        if self.path not in ("/payments/", "/journals/"):
            return self.answer(404, {"message": "no such endpoint " + self.path})
        key = self.headers.get("Idempotency-Key", "")
        with lock:
            state["count"] += 1
            mode, message = state["mode"], state["message"]
            if state["failModes"]:
                failing, mode = True, state["failModes"].pop(0)
            else:
                failing = state["fail"] > 0 or (state["failEvery"] and state["count"] % state["failEvery"] == 0)
                if state["fail"] > 0:
                    state["fail"] -= 1
            state["requests"].append({"path": self.path, "key": key, "body": body, "failed": bool(failing)})
            arrived.notify_all()
        if failing:
            if mode == "500":
                return self.answer(500, {"message": message})
            if mode == "hang":
                time.sleep(30)
            return self.drop()
        with lock:
            table = state["payments"] if self.path == "/payments/" else state["journals"]
            if key in table:
                return self.answer(200, table[key]["answer"])
            if self.path == "/journals/":
                answer = {"ok": True}
            elif state["paymentAnswer"] is not None:
                answer = state["paymentAnswer"]
            else:
                answer = {"id": "pay_%d" % state["next"]}
            state["next"] += 1
            table[key] = {"body": body, "answer": answer}
        self.answer(200, answer)


if __name__ == "__main__":
    serve(Journal)
