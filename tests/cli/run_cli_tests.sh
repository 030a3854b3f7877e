#!/usr/bin/env bash
# Runs the end-to-end cases of higgins-cli (tests/cli/cases/*.t; the format is in
# tests/cli/README.md). For each case file it starts a real broker on a free port, runs the file's
# commands in order in one bash session, compares their combined stdout and stderr and exit
# status with what the file expects, prints a unified diff of the file against what happened when
# they differ, and stops the broker with SIGTERM.
#
# Usage: run_cli_tests.sh HIGGINS HIGGINS_CLI CASES
#   HIGGINS      the broker binary
#   HIGGINS_CLI  the higgins-cli binary
#   CASES        a .t file, or a folder whose *.t files are all run
# Exit status: 0 when every case passed, 1 otherwise.
# With CLI_TESTS_ACTUAL=DIR set, the file as it would read with the actual outputs is also
# written to DIR (review it before copying it over a case file).
set -uo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 HIGGINS HIGGINS_CLI CASES" >&2
  exit 2
fi
higgins=$(realpath "$1")
cli=$(realpath "$2")
if [ -d "$3" ]; then
  case_files=("$3"/*.t)
else
  case_files=("$3")
fi

failures=0
work=$(mktemp -d)
broker_pid=
cleanup() {
  [ -n "$broker_pid" ] && kill -KILL "$broker_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# start_broker DIR: starts `higgins --port=0 --kafka-port=0 --http-port=0 --dir=DIR/broker`, sets broker_pid and port.
start_broker() {
  local dir=$1
  "$higgins" --port=0 --kafka-port=0 --http-port=0 --dir="$dir/broker" >"$dir/broker.log" 2>&1 &
  broker_pid=$!
  port=
  for _ in $(seq 1 400); do
    if [[ $(cat "$dir/broker.log") =~ listening\ on\ [^\ ]*:([0-9]+) ]]; then
      port=${BASH_REMATCH[1]}
      return 0
    fi
    if ! kill -0 "$broker_pid" 2>/dev/null; then break; fi
    sleep 0.05
  done
  echo "the broker did not start; its log:"
  cat "$dir/broker.log"
  return 1
}

# stop_broker DIR: SIGTERM, then waits; fails when the broker does not exit cleanly.
stop_broker() {
  local dir=$1 status
  kill -TERM "$broker_pid"
  wait "$broker_pid"
  status=$?
  broker_pid=
  if [ "$status" -ne 0 ]; then
    echo "the broker exited with status $status after SIGTERM; its log:"
    cat "$dir/broker.log"
    return 1
  fi
}

# glob_pattern TEXT: TEXT as a bash pattern in which only * and ? are wildcards (\*, \? and \\
# stand for the characters themselves; any other backslash is itself).
glob_pattern() {
  local text=$1 out="" i c
  for ((i = 0; i < ${#text}; i++)); do
    c=${text:i:1}
    if [ "$c" == '\' ] && [[ ${text:i+1:1} == [*?\\] ]]; then
      i=$((i + 1))
      out+="\\${text:i:1}"
    elif [ "$c" == '*' ] || [ "$c" == '?' ]; then
      out+=$c
    else
      out+="\\$c"
    fi
  done
  printf '%s' "$out"
}

# line_matches EXPECTED ACTUAL: equal; or EXPECTED ends in " (glob)" and the rest matches ACTUAL
# with * for any text and ? for one character; or EXPECTED ends in " (re)" and the rest matches
# ACTUAL whole as a POSIX extended regular expression.
line_matches() {
  local expected=$1 actual=$2
  [ "$expected" == "$actual" ] && return 0
  if [[ $expected == *" (glob)" ]]; then
    local pattern
    pattern=$(glob_pattern "${expected% (glob)}")
    # shellcheck disable=SC2053
    [[ $actual == $pattern ]] && return 0
  elif [[ $expected == *" (re)" ]]; then
    local re=${expected% (re)}
    [[ $actual =~ ^($re)$ ]] && return 0
  fi
  return 1
}

# run_case FILE: returns 0 when every command of FILE did what FILE says.
run_case() {
  local file=$1 dir
  dir=$(mktemp -d "$work/case.XXXXXX")
  mkdir -p "$dir/bin" "$dir/data"
  ln -s "$cli" "$dir/bin/higgins-cli"
  ln -s "$higgins" "$dir/bin/higgins"

  # Parse the file into items: "other" lines kept as they are, and commands with their expected
  # output and exit status.
  local -a lines kinds texts codes expects exits
  mapfile -t lines <"$file"
  local i=0 n=${#lines[@]}
  while [ "$i" -lt "$n" ]; do
    local line=${lines[$i]}
    if [[ $line != '$ '* ]]; then
      kinds+=(other) texts+=("$line") codes+=("") expects+=("") exits+=(0)
      i=$((i + 1))
      continue
    fi
    local raw=$line code=${line:2}
    i=$((i + 1))
    while [ "$i" -lt "$n" ] && [[ ${lines[$i]} == '> '* || ${lines[$i]} == '>' ]]; do
      raw+=$'\n'${lines[$i]}
      code+=$'\n'${lines[$i]:2}
      i=$((i + 1))
    done
    local -a block=()
    while [ "$i" -lt "$n" ] && [[ ${lines[$i]} != '$ '* && ${lines[$i]} != '#'* ]]; do
      block+=("${lines[$i]}")
      i=$((i + 1))
    done
    local trailing=0
    while [ ${#block[@]} -gt 0 ] && [ -z "${block[-1]}" ]; do
      unset 'block[-1]'
      trailing=$((trailing + 1))
    done
    local status=0
    if [ ${#block[@]} -gt 0 ] && [[ ${block[-1]} =~ ^\[exit\ ([0-9]+)\]$ ]]; then
      status=${BASH_REMATCH[1]}
      unset 'block[-1]'
    fi
    local expected=""
    [ ${#block[@]} -gt 0 ] && expected=$(printf '%s\n' "${block[@]}")
    kinds+=(command) texts+=("$raw") codes+=("$code") expects+=("$expected") exits+=("$status")
    for _ in $(seq 1 "$trailing"); do
      kinds+=(other) texts+=("") codes+=("") expects+=("") exits+=(0)
    done
  done

  # One script runs every command; a marker line after each gives its exit status.
  local mark="@@cli-test-$RANDOM$RANDOM@@" script="$dir/script.sh" k
  {
    echo 'exec 2>&1'
    echo 'cd "$DATA"'
    for k in "${!kinds[@]}"; do
      [ "${kinds[$k]}" == command ] || continue
      printf '%s\n' "${codes[$k]}"
      printf 'printf "\\n%s %%d\\n" "$?"\n' "$mark"
    done
  } >"$script"

  start_broker "$dir" || return 1
  local port_used=$port
  env -u HIGGINS_HOST -u HIGGINS_PORT LC_ALL=C PATH="$dir/bin:$PATH" PORT="$port_used" \
    DATA="$dir/data" timeout 300 bash "$script" </dev/null >"$dir/output" 2>&1
  local broker_ok=0
  stop_broker "$dir" || broker_ok=1

  # Split the output at the markers.
  local -a outputs statuses
  local current=""
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^$mark\ ([0-9]+)$ ]]; then
      outputs+=("$current")
      statuses+=("${BASH_REMATCH[1]}")
      current=""
    else
      current+=$line$'\n'
    fi
  done <"$dir/output"

  # Rebuild the file from what happened; it equals the file when every command passed.
  local actual_file="$dir/$(basename "$file").out" c=0
  {
    for k in "${!kinds[@]}"; do
      if [ "${kinds[$k]}" == other ]; then
        printf '%s\n' "${texts[$k]}"
        continue
      fi
      printf '%s\n' "${texts[$k]}"
      if [ "$c" -ge ${#outputs[@]} ]; then
        if [ "$c" -eq ${#outputs[@]} ]; then
          echo "[no result: the session ended (exit or timeout) before this command finished]"
        else
          echo "[did not run]"
        fi
        c=$((c + 1))
        continue
      fi
      local -a got want
      mapfile -t got < <(printf '%s' "${outputs[$c]}")
      while [ ${#got[@]} -gt 0 ] && [ -z "${got[-1]}" ]; do unset 'got[-1]'; done
      mapfile -t want < <(printf '%s' "${expects[$k]}")
      local j
      for j in "${!got[@]}"; do
        if [ "$j" -lt ${#want[@]} ] && line_matches "${want[$j]}" "${got[$j]}"; then
          printf '%s\n' "${want[$j]}"
        else
          printf '%s\n' "${got[$j]}"
        fi
      done
      [ "${statuses[$c]}" != 0 ] && echo "[exit ${statuses[$c]}]"
      c=$((c + 1))
    done
  } >"$actual_file"

  if [ -n "${CLI_TESTS_ACTUAL:-}" ]; then
    cp "$actual_file" "$CLI_TESTS_ACTUAL/$(basename "$file")"
  fi
  if ! diff -u --label "$file" --label "$file (actual)" "$file" "$actual_file"; then
    return 1
  fi
  return $broker_ok
}

for file in "${case_files[@]}"; do
  if run_case "$file"; then
    echo "PASS $(basename "$file")"
  else
    echo "FAIL $(basename "$file")"
    failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ]
