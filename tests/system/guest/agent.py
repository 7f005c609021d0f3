"""The system test's hands inside the virtual machine: runs what the host sends, one JSON line each way.

Started by ``molebox-test-agent.service`` in the test image (never on a real box). A request is
``{"sh": "shell command", "timeout": seconds}``; the answer ``{"rc": n, "out": "...", "err": "..."}``.
Standard library only: it runs on the guest's own python3 before anything of molebox is installed.
"""
import json
import socketserver
import subprocess

PORT = 7000


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        for line in self.rfile:
            request = json.loads(line)
            try:
                done = subprocess.run(request["sh"], shell=True, capture_output=True, timeout=request.get("timeout"))
                answer = {"rc": done.returncode, "out": done.stdout.decode(errors="replace"),
                          "err": done.stderr.decode(errors="replace")}
            except subprocess.TimeoutExpired:
                answer = {"rc": -1, "out": "", "err": f"timed out after {request.get('timeout')} s"}
            self.wfile.write(json.dumps(answer).encode() + b"\n")


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


if __name__ == "__main__":
    Server(("0.0.0.0", PORT), Handler).serve_forever()
