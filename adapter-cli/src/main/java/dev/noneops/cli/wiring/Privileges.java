package dev.noneops.cli.wiring;

import com.sun.security.auth.module.UnixSystem;

/** Whether this process runs as root (uid 0), which every command that changes the host needs. */
final class Privileges {
  private Privileges() {}

  static boolean isRoot() {
    return new UnixSystem().getUid() == 0;
  }
}
