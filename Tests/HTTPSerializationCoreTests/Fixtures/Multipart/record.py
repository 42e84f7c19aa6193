#!/usr/bin/env python3
"""Records multipart bodies written by other clients, for the parser's interop tests.

Run from this folder: python3 record.py. It writes one <name>.body per case and
manifest.json with each body's Content-Type and the parts it was built from (name, file
name, content type, bytes). curl is recorded through a loopback socket; Python's requests
(urllib3) and email libraries write their bodies in process. Nothing leaves the machine.
"""
import base64, json, os, socket, subprocess, tempfile, threading
import email.policy
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
import requests

cases = []

def record(name, content_type, body, parts, writer):
    with open(f"{name}.body", "wb") as f:
        f.write(body)
    cases.append({"name": name, "writer": writer, "contentType": content_type, "parts": [
        {"name": p[0], "fileName": p[1], "contentType": p[2], "body": base64.b64encode(p[3]).decode()} for p in parts]})

def curl_body(arguments):
    """The Content-Type and body curl sends for these -F arguments."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    received = {}
    def serve():
        connection, _ = server.accept()
        data = b""
        while b"\r\n\r\n" not in data:
            data += connection.recv(65536)
        head, body = data.split(b"\r\n\r\n", 1)
        headers = {}
        for line in head.split(b"\r\n")[1:]:
            key, value = line.split(b":", 1)
            headers[key.strip().lower().decode()] = value.strip().decode()
        if headers.get("expect", "").lower() == "100-continue":
            connection.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        length = int(headers["content-length"])
        while len(body) < length:
            body += connection.recv(65536)
        connection.sendall(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        connection.close()
        received.update(contentType=headers["content-type"], body=body)
    thread = threading.Thread(target=serve)
    thread.start()
    subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/up"] + arguments, check=True)
    thread.join()
    server.close()
    return received["contentType"], received["body"]

with tempfile.TemporaryDirectory() as folder:
    note = os.path.join(folder, "note.txt")
    with open(note, "wb") as f:
        f.write(b"hello\nworld\r\n")
    binary = os.path.join(folder, "data.bin")
    blob = bytes((i * 37 + 11) % 256 for i in range(3000)) + b"\r\n--not-a-boundary\r\n"
    with open(binary, "wb") as f:
        f.write(blob)

    content_type, body = curl_body(["-F", "title=Hello, world", "-F", f"file=@{note}", "-F", "empty="])
    record("curl-fields-and-file", content_type, body,
           [("title", None, None, b"Hello, world"), ("file", "note.txt", "text/plain", b"hello\nworld\r\n"), ("empty", None, None, b"")], "curl 7.88.1")
    content_type, body = curl_body(["-F", f'doc=@{binary};type=application/octet-stream;filename=da"ta bin.bin',
                                    "-F", f"utf=@{note};filename=caf\u00e9 \u65e5\u672c.txt", "-F", "quote=say \"hi\""])
    record("curl-quotes-and-unicode", content_type, body,
           [("doc", 'da"ta bin.bin', "application/octet-stream", blob), ("utf", "caf\u00e9 \u65e5\u672c.txt", "text/plain", b"hello\nworld\r\n"),
            ("quote", None, None, b'say "hi"')], "curl 7.88.1")

# requests 2.34 (urllib3 2.7): HTML5-style escapes in names, in process.
prepared = requests.Request("POST", "http://127.0.0.1/up",
                            data={"field": "value", "repeat": ["1", "2"]},
                            files={"report": ("r\u00e9port \"q\".csv", b"a,b\r\n1,2\r\n", "text/csv")}).prepare()
record("requests-form", prepared.headers["Content-Type"], prepared.body,
       [("field", None, None, b"value"), ("repeat", None, None, b"1"), ("repeat", None, None, b"2"),
        ("report", "r\u00e9port \"q\".csv", "text/csv", b"a,b\r\n1,2\r\n")], f"requests {requests.__version__}")

# email: RFC 2231 file names, quoted pairs and folded header lines (the default policy folds at 78).
message = MIMEMultipart("form-data", boundary="=====email.boundary=====")
text = MIMEText("plain text value", "plain", "utf-8")
del text["Content-Transfer-Encoding"]
text.set_payload("plain text value")
text.add_header("Content-Disposition", "form-data", name="comment")
message.attach(text)
attachment = MIMEApplication(b"\x00\x01binary\xff", "octet-stream")
del attachment["Content-Transfer-Encoding"]
attachment.set_payload(b"\x00\x01binary\xff")
attachment.add_header("Content-Disposition", "form-data", name="upload", filename=("utf-8", "", "r\u00e9sum\u00e9 with a rather long name that folds.pdf"))
message.attach(attachment)
quoted = MIMEText("q", "plain", "utf-8")
del quoted["Content-Transfer-Encoding"]
quoted.set_payload("q")
quoted.add_header("Content-Disposition", "form-data", name="quoted", filename='a"b.txt')
message.attach(quoted)
policy = email.policy.default.clone(linesep="\r\n")
raw = message.as_bytes(policy=policy)
head, body = raw.split(b"\r\n\r\n", 1)
content_type = "multipart/form-data; boundary=\"=====email.boundary=====\""
record("email-rfc2231-folded", content_type, body,
       [("comment", None, "text/plain; charset=\"utf-8\"", b"plain text value"),
        ("upload", "r\u00e9sum\u00e9 with a rather long name that folds.pdf", "application/octet-stream", b"\x00\x01binary\xff"),
        ("quoted", 'a"b.txt', "text/plain; charset=\"utf-8\"", b"q")], "Python email (3.11)")

with open("manifest.json", "w") as f:
    json.dump(cases, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("\n".join(f"{c['name']}: {len(c['parts'])} parts" for c in cases))
