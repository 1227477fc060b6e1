# Sourced by test.sh and bench.sh: static servers on free local ports, for the
# end-to-end tests and benchmarks. The caller kills "${servers[@]}" on exit.
servers=()

# serve DIR: serves DIR on 127.0.0.1 in the background, once it answers; sets $port.
serve() {
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$1" >/dev/null 2>&1 &
  servers+=($!)
  for _ in $(seq 50); do
    curl -fs -o /dev/null "http://127.0.0.1:$port/" && return 0
    sleep 0.1
  done
  echo "static server on port $port did not start" >&2
  return 1
}
