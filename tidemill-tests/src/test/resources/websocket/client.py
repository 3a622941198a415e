"""A real WebSocket client (Debian's python3-websockets 10.4) against a Tidemill test server, for
PythonClientTest. Usage: python3 client.py ws://127.0.0.1:PORT

Runs each scenario with its own connection and timeout, and prints one line per scenario:
"OK <name>" or "FAIL <name>: <what went wrong>". Exits 0 once all have run.
"""
import asyncio
import sys

import websockets

BASE = sys.argv[1]
TIMEOUT = 20


async def echo_text_and_binary():
    async with websockets.connect(BASE + "/ws/echo", compression=None) as ws:
        await ws.send("hello")
        assert await ws.recv() == "hello"
        await ws.send(b"\x00\x01\xfe\xff")
        got = await ws.recv()
        assert got == b"\x00\x01\xfe\xff", got
        await ws.send("κόσμε €")
        assert await ws.recv() == "κόσμε €"


async def fragmented_message():
    async with websockets.connect(BASE + "/ws/echo", compression=None) as ws:
        await ws.send(["frag1-", "frag2-", "κόσμε"])  # an iterable is sent as one message in fragments
        assert await ws.recv() == "frag1-frag2-κόσμε"


async def large_messages():
    async with websockets.connect(BASE + "/ws/echo", compression=None, max_size=16 * 2**20) as ws:
        text = "x" * (1 << 20)
        await ws.send(text)
        assert await ws.recv() == text
        data = bytes(range(256)) * (4 * 2**20 // 256)
        await ws.send(data)
        assert await ws.recv() == data


async def ping_pong():
    async with websockets.connect(BASE + "/ws/echo") as ws:
        waiter = await ws.ping(b"are you there")
        await asyncio.wait_for(waiter, TIMEOUT)  # resolves only on a pong with the same payload


async def client_close_code():
    ws = await websockets.connect(BASE + "/ws/echo")
    await ws.close(code=4000, reason="bye")
    assert ws.close_code == 4000, ws.close_code  # the code of the server's close frame


async def server_close_code():
    async with websockets.connect(BASE + "/ws/close") as ws:
        await ws.send("close please")
        try:
            await ws.recv()
            raise AssertionError("a message instead of the close")
        except websockets.ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 4001, e
            assert e.rcvd.reason == "as asked", e


async def permessage_deflate():
    async with websockets.connect(BASE + "/ws/echo", compression="deflate") as ws:
        ext = ws.response_headers.get("Sec-WebSocket-Extensions", "")
        assert "permessage-deflate" in ext, ext
        text = "a compressible sentence, repeated. " * 3000
        for _ in range(3):  # context takeover across messages
            await ws.send(text)
            assert await ws.recv() == text
        await ws.send(b"\x00" * 100000)
        assert await ws.recv() == b"\x00" * 100000


async def permessage_deflate_no_context_takeover():
    from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
    factory = ClientPerMessageDeflateFactory(server_no_context_takeover=True, client_no_context_takeover=True)
    async with websockets.connect(BASE + "/ws/echo", extensions=[factory], compression=None) as ws:
        ext = ws.response_headers.get("Sec-WebSocket-Extensions", "")
        assert "server_no_context_takeover" in ext, ext
        for _ in range(3):
            await ws.send("the same message, again and again " * 100)
            assert await ws.recv() == "the same message, again and again " * 100


async def subprotocol():
    async with websockets.connect(BASE + "/ws/proto", subprotocols=["other", "chat"]) as ws:
        assert ws.subprotocol == "chat", ws.subprotocol
        await ws.send("hi")
        assert await ws.recv() == "hi"


async def main():
    scenarios = [echo_text_and_binary, fragmented_message, large_messages, ping_pong, client_close_code,
                 server_close_code, permessage_deflate, permessage_deflate_no_context_takeover, subprotocol]
    for s in scenarios:
        try:
            await asyncio.wait_for(s(), TIMEOUT)
            print("OK " + s.__name__, flush=True)
        except BaseException as e:  # report and go on with the next scenario
            print("FAIL %s: %s %s" % (s.__name__, type(e).__name__, e), flush=True)


asyncio.run(main())
