"""The fakes the tests lean on behave like the real servers they stand for."""
import socket

from tests.support import Receiver, wait_until


def test_the_receiver_records_no_request_whose_sender_died_before_the_body_was_sent():
    receiver = Receiver()
    try:
        host, port = receiver.server.server_address
        with socket.create_connection((host, port)) as cut:  # a sender killed mid-request
            cut.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"id\": ")
        with socket.create_connection((host, port)) as whole:
            whole.sendall(b"POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
            whole.recv(1024)
        wait_until(lambda: receiver.requests, timeout=5)
        assert [(r["path"], r["body"]) for r in receiver.requests] == [("/ok", b"{}")]
    finally:
        receiver.close()
