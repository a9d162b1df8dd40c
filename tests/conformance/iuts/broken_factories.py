"""In-process IUT factories that break the adapter contract, for adapter tests."""

from reference_harness.iut import create


class _Wrapper:
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.inner = create()

    def hello(self):
        if self.mode == "bad-hello":
            return {"type": "hello", "protocol_version": "2.0"}
        hello = self.inner.hello()
        if self.mode == "no-cancellation":
            hello["capabilities"] = [c for c in hello["capabilities"] if c != "CANCELLATION"]
        return hello

    def run(self, fixture):
        if self.mode == "raises":
            message = "harness exploded"
            raise RuntimeError(message)
        observation = self.inner.run(fixture)
        if self.mode == "not-json":
            observation["trace"] = {1, 2}
        if self.mode == "other-fixture":
            observation["fixture_id"] = "someone-else"
        if self.mode == "overwrite" and observation["invocations"]:
            observation["invocations"][0]["arguments"]["query"] = "overwritten by a duplicate"
        return observation

    def close(self) -> None:
        self.inner.close()


def raises():
    return _Wrapper("raises")


def not_json():
    return _Wrapper("not-json")


def other_fixture():
    return _Wrapper("other-fixture")


def bad_hello():
    return _Wrapper("bad-hello")


def factory_fails():
    message = "no database"
    raise OSError(message)


def overwrite():
    return _Wrapper("overwrite")


def no_cancellation():
    return _Wrapper("no-cancellation")
