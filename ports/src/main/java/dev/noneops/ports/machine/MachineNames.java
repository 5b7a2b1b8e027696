package dev.noneops.ports.machine;

import java.util.regex.Pattern;

/** The names a Machine can have: a Kubernetes object name, an RFC 1123 DNS subdomain. */
public final class MachineNames {
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final int MAX_LENGTH = 253;

  private MachineNames() {}

  /**
   * Returns {@code name} when it is a valid Machine name.
   *
   * @throws IllegalArgumentException when it is not
   */
  public static String check(String name) {
    if (name == null
        || name.isEmpty()
        || name.length() > MAX_LENGTH
        || !DNS_SUBDOMAIN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "not a Machine name (a DNS subdomain: lower-case letters, digits, '-' and '.', at most 253): '"
              + name + "'");
    }
    return name;
  }
}
