#!/bin/sh
# The JVM that Maven Surefire forks for tests (configured as surefire's <jvm>).
#
# Tests that mount and unmount need a private mount namespace so nothing they do reaches the
# host. A multi-threaded JVM cannot unshare(CLONE_NEWNS) itself, so when running as root this
# script execs the JVM inside `unshare --mount --propagation private`; otherwise it execs the JVM
# as is and those tests skip. exec keeps the forked JVM a direct child of Maven (same pid, same
# pipes). NONEOPS_OUTER_MOUNT_NS records the mount namespace the JVM was started from, so a test
# can check that it really runs in a different one before it mounts anything.
#
# Surefire insists that its <jvm> path ends in bin/java, so the POMs name the link
# .ci/surefire-jvm/bin/java, which points here. NONEOPS_TEST_JAVA names the real java executable
# (the POMs pass ${java.home}/bin/java); without it, JAVA_HOME's or the PATH's java is used.
self="$(readlink -f "$0")"
java_bin="${NONEOPS_TEST_JAVA:-}"
if [ -z "$java_bin" ] && [ -n "${JAVA_HOME:-}" ] && [ "$(readlink -f "$JAVA_HOME/bin/java")" != "$self" ]; then
  java_bin="$JAVA_HOME/bin/java"
fi
if [ -z "$java_bin" ]; then
  java_bin="java"
fi
if [ "$(readlink -f "$(command -v "$java_bin" 2>/dev/null || echo "$java_bin")")" = "$self" ]; then
  echo "surefire-jvm-unshare.sh: cannot find a java executable other than this wrapper; set NONEOPS_TEST_JAVA" >&2
  exit 2
fi
NONEOPS_OUTER_MOUNT_NS="$(readlink /proc/self/ns/mnt 2>/dev/null || true)"
export NONEOPS_OUTER_MOUNT_NS

if [ "$(id -u)" = "0" ] && command -v unshare >/dev/null 2>&1 \
    && unshare --mount --propagation private true >/dev/null 2>&1; then
  exec unshare --mount --propagation private "$java_bin" "$@"
fi
exec "$java_bin" "$@"
