"""An echo server on python-websockets (Debian's python3-websockets 10.4), for WebSocketClientTest:
it checks Tidemill's test client against an implementation that is not ours.

Usage: python3 echo_server.py [extension options as name=value ...]
Prints the port it listens on (127.0.0.1, port 0), then echoes every message until stdin closes.
"""
import asyncio
import sys

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory


async def echo(ws, path=None):
    try:
        async for message in ws:
            await ws.send(message)
    except websockets.ConnectionClosed:
        pass


async def main():
    options = {}
    for arg in sys.argv[1:]:
        name, _, value = arg.partition("=")
        options[name] = True if value in ("", "true") else int(value)
    factory = ServerPerMessageDeflateFactory(**options)
    server = await websockets.serve(echo, "127.0.0.1", 0, extensions=[factory], compression=None,
                                    max_size=64 * 1024 * 1024)
    print(server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the test closes our stdin
    server.close()
    await server.wait_closed()


asyncio.run(main())
