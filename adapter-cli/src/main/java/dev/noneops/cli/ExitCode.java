package dev.noneops.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every exit status the CLI returns: the one table scripts and the README rely on. Codes above 2
 * name the situations an operator's automation reacts to differently (retry later, fix the
 * configuration or who can write it, rerun as root, the upgrade was undone).
 */
public enum ExitCode {
  OK(0, "success"),
  FAILURE(1, "the operation failed; the error line names what failed and where"),
  USAGE(
      2,
      "bad command line: unknown command or option, missing or malformed argument, or --yes"
          + " missing where stdin is no terminal to ask on; nothing changed"),
  INVALID_CONFIG(
      3,
      "the agent configuration is unreadable or invalid (every violation is listed), or a file"
          + " root would follow (the configuration file, the agent's java) is writable by a user"
          + " or group other than root; nothing changed"),
  NOT_ROOT(4, "the command changes the host and must run as root; nothing changed"),
  BUSY(
      5,
      "another noneops operation holds the node lock, waited for up to --lock-timeout (60 s by"
          + " default); nothing changed, retry when it finished"),
  ROLLED_BACK(6, "the upgrade failed and was rolled back: the previous version runs again"),
  UNHEALTHY(
      7,
      "a check ran and found a problem (preflight, allocation-launch-check, verify, status of a"
          + " stopped stack)"),
  ABSENT(8, "no node is installed on this host (present)");

  private final int code;
  private final String meaning;

  ExitCode(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  public int code() {
    return code;
  }

  public String meaning() {
    return meaning;
  }

  /** The table as picocli's {@code exitCodeList} wants it: code (right-aligned) to meaning, in order. */
  public static Map<String, String> helpList() {
    Map<String, String> list = new LinkedHashMap<>();
    for (ExitCode c : values()) {
      list.put(String.format("%2d", c.code), c.meaning);
    }
    return list;
  }
}
