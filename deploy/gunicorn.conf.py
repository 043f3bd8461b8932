"""Gunicorn settings for a public host: `gunicorn -c deploy/gunicorn.conf.py` (Docker, systemd).

`shipmate serve` uses the same worker model with table-sized numbers (1 worker × 100 threads);
this file is for a convention or a public server behind nginx, with REDIS_URL pointing at one
shared Redis. Each setting says why it is what it is; the environment may override the sizes.
"""

import os

wsgi_app = "shipmate.web:create_app()"
bind = [f"0.0.0.0:{os.environ.get('PORT', '8000')}"]

# gthread, because flask-sock runs each WebSocket inside the request that upgraded it: the socket
# holds one worker thread for its whole life (hours, for a game). The sync worker would serve one
# phone per process; gevent would need monkey-patching under redis-py's blocking pub/sub reader.
# A thread that waits on a socket costs no CPU and little memory, so plenty of them are cheap.
worker_class = "gthread"

# Threads per worker = the open sockets one worker can hold, plus room for HTTP requests (an
# action, a join). A table is ~7 sockets (up to 6 phones and the shared screen) and a reconnecting
# phone briefly holds two. 100 threads hold ~12 busy tables per worker. When every thread is
# taken, a new phone waits in the listen queue, so size for the peak, not the average.
threads = int(os.environ.get("SHIPMATE_THREADS", "100"))

# Workers: Python runs one thread at a time per process (the GIL), so a worker per core lets the
# host use its cores for JSON encoding and the rules; each worker holds one Redis subscriber for
# its sockets. No sticky sessions are needed: any worker on any host serves any table, because
# every change goes through Redis and is published to every subscriber.
workers = int(os.environ.get("WEB_CONCURRENCY", str(min(os.cpu_count() or 1, 4))))

# gthread keeps idle keep-alive connections out of the thread pool; it needs room above `threads`.
worker_connections = threads + 1000

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
