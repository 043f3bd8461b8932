"""Gunicorn settings for a public host: `gunicorn -c deploy/gunicorn.conf.py` (Docker, systemd).

`shipmate serve` uses the same worker model with table-sized numbers (1 gevent worker);
this file is for a convention or a public server behind nginx, with REDIS_URL pointing at one
shared Redis. Each setting says why it is what it is; the environment may override the sizes.
"""

import os

from shipmate.serve import settle_worker

wsgi_app = "shipmate.web:create_app()"
bind = [f"0.0.0.0:{os.environ.get('PORT', '8000')}"]

# gevent is the one worker. Each WebSocket runs inside the request that upgraded it (flask-sock,
# web/ws.py), so every open socket holds a request's worth of concurrency for its whole life (hours,
# for a game), and three threads: the request's, which reads the client's messages and runs its
# actions; simple-websocket's reader, which takes frames off the socket and sends the keep-alive
# pings; and the socket's writer, the one thread that sends its messages (web/connection.py).
# gevent makes them greenlets on one OS thread: a switch is a cheap user-space jump, a waiting one
# costs no CPU and a few kB, and the same code runs unchanged (the worker monkey-patches sockets,
# locks and threads before the app is imported, redis-py's blocking pub/sub reader included).
# Under gthread they are OS threads, the requests' from a fixed pool: `--threads N` serves N sockets and no
# HTTP request beside them once they are taken, and an earlier path with three threads per socket
# spent more CPU switching threads than on the game (3.3 ms of server CPU per action; gevent halved
# it, docs/PERFORMANCE.md). The code is correct under real threads too (a test serves a socket from
# a gthread server), but no table should be served that way; the sync worker serves one request
# per process, so one phone.
worker_class = "gevent"

# Open connections one worker accepts (sockets and HTTP requests together). A table is ~7 sockets
# (up to 6 phones and the shared screen) and a reconnecting phone briefly holds two. A greenlet
# that waits costs no CPU, so the limit is memory (docs/PERFORMANCE.md measures per idle socket)
# and the latency budget of one core, not a thread pool.
worker_connections = int(os.environ.get("SHIPMATE_CONNECTIONS", "2000"))

# Workers, by measurement (docs/PERFORMANCE.md): one process runs one core at most (the GIL;
# gevent is one OS thread), and Redis (and nginx) need a core of their own. Each worker that holds
# a socket of a table parses and renders each change of that table again (no sticky sessions: a
# table's sockets spread over the workers), and a change whose sockets sit in two processes waits
# for both to be scheduled. On the 2-core bench host, with the load generator on the same cores,
# 2 workers carried about the same actions/s as 1 (1,764-2,036 against 1,627-2,024 at 50 games)
# but with 2-3x the p99 (104-129 ms against 46-55 ms), and used ~25% more CPU per action. So a
# worker per core less one, at least 1 and at most 4; WEB_CONCURRENCY overrides. Any worker on any
# host serves any table, because every change goes through Redis and is published to every
# subscriber.
workers = int(os.environ.get("WEB_CONCURRENCY", str(max(1, min((os.cpu_count() or 1) - 1, 4)))))

# Once a worker has loaded the app, freeze what is loaded out of garbage collection and collect
# less often (shipmate.serve.settle_worker says why).
post_worker_init = settle_worker

# Never recycle workers: a recycled worker drops every socket it holds (phones resume, but the
# whole table sees a reconnect for nothing).
max_requests = 0

# The worker's main thread sends the heartbeat, so a long-lived socket never trips the timeout;
# 30 s only catches a worker that is truly stuck.
timeout = 30

# On a deploy, a stopping worker waits this long for its sockets; phones resume on the new one
# from their last version, so there is little worth waiting for.
graceful_timeout = 10

# nginx keeps its upstream connections open (`keepalive 32` in nginx.conf); match its idle time.
keepalive = 65

# Each worker creates the app after the fork: Redis connections and the subscriber thread must
# not be shared between processes.
preload_app = False

# nginx sets X-Forwarded-For/-Proto; the app trusts them through PROXY_COUNT=1 (see
# docker-compose.yml). Gunicorn's own scheme detection trusts the proxy's address only.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# nginx logs every request; gunicorn logs errors to stderr for the journal or `docker logs`.
accesslog = None
errorlog = "-"

# The control socket's default path is per user and shared by every gunicorn on the host.
control_socket_disable = True
