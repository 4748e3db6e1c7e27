// The answer to one command from JavaScript. A command answers at once, or keeps its Reply and
// answers from a later callback (a func-eval completes in EvalComplete). A Reply that is dropped
// unanswered rejects its promise, so no JavaScript caller ever waits for nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "../runtime/status.h"

namespace dbg {

class Reply {
 public:
  using Deliver = std::function<void(Status status, std::string json)>;

  Reply() = default;
  explicit Reply(Deliver deliver) : state_(std::make_shared<State>(std::move(deliver))) {}

  void Ok(std::string json = "{}") { Finish(Status::Success(), std::move(json)); }
  void Fail(Status status) { Finish(std::move(status), "null"); }
  void Fail(const char* code, const std::string& message, HRESULT hr = E_FAIL) { Fail(Status::Fail(code, message, hr)); }
  bool Pending() const { return state_ && state_->deliver; }

 private:
  struct State {
    explicit State(Deliver d) : deliver(std::move(d)) {}
    ~State() {
      if (deliver) deliver(Status::Fail("DROPPED", "the debugger ended the command without an answer"), "null");
    }
    Deliver deliver;
  };

  void Finish(Status status, std::string json) {
    if (!Pending()) return;
    Deliver deliver = std::move(state_->deliver);
    state_->deliver = nullptr;
    deliver(std::move(status), std::move(json));
  }

  std::shared_ptr<State> state_;
};

}  // namespace dbg
