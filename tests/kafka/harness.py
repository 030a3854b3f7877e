"""What the Kafka client tests share: checks that record failures, free ports, commands that must
succeed, and a real broker process with a Kafka listener on file storage."""
import os
import signal
import socket
import subprocess
import time

FAILURES = []

# File storage and the `event` schema (id, n, city) that the tests' streams use.
EVENT_CONFIG = """
[storage.disk]
type = "file"

[schema.event]
id = "string"
n = "int64"
city = "string"
"""


def check(condition, what):
    """Prints ok/FAIL for `what`; a failure is kept in FAILURES and the test goes on."""
    print(("ok: " if condition else "FAIL: ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


def wait_for(condition, seconds):
    """Polls `condition` every 0.1 s for up to `seconds`; its last answer."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(args, input_text=None, timeout=60):
    """Runs `args`; its stdout. Raises when it exits with anything but 0."""
    result = subprocess.run(args, input=input_text, capture_output=True, text=True,
                            timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result.stdout


class Broker:
    """`higgins` with its native listener on a free port (`port`, read from its log) and its
    Kafka listener on `kafka_port`, data in WORK/data, log appended to WORK/broker.log."""

    def __init__(self, binary, work, kafka_port, extra_args=()):
        self.binary, self.work, self.kafka_port = binary, work, kafka_port
        self.extra_args = list(extra_args)
        self.process = None
        self.port = None
        self.log_path = os.path.join(work, "broker.log")

    def start(self):
        start = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen([self.binary, "--port=0", f"--kafka-port={self.kafka_port}",
                                         "--http-port=0", f"--dir={self.work}/data"] + self.extra_args,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(400):
            text = open(self.log_path).read()[start:]
            if "Kafka listener on" in text:
                self.port = int(text.split("listening on ")[1].split(" ")[0].rsplit(":", 1)[1])
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the broker did not start: " + open(self.log_path).read()[-2000:])

    def cli(self, binary):
        """The higgins-cli command line that talks to this broker."""
        return [binary, "--port", str(self.port)]

    def create_configuration(self, cli_binary, toml):
        """Writes `toml` to WORK/config.toml and merges it with `higgins-cli create-configuration`
        (raises when that fails)."""
        path = os.path.join(self.work, "config.toml")
        with open(path, "w") as f:
            f.write(toml)
        run(self.cli(cli_binary) + ["create-configuration", "--file", path])

    def log_tail(self, chars=4000):
        return open(self.log_path).read()[-chars:]

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        if self.process:
            self.log.close()
