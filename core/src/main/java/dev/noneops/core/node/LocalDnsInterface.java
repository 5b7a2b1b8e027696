package dev.noneops.core.node;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The LocalDNS interface a configuration sets up: a dummy link of this name carrying this address.
 * The upgrade journal records the target's, so that a rollback at recovery, which knows only the
 * applied configuration, can remove the target's interface when it has another name.
 *
 * @param name the interface name (a Linux interface name: 1 to 15 of {@code [A-Za-z0-9_.-]})
 * @param address the address it carries (without prefix length)
 */
public record LocalDnsInterface(String name, String address) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

  public LocalDnsInterface {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(address, "address");
    if (!isInterfaceName(name)) {
      throw new IllegalArgumentException("not a Linux interface name: '" + name + "'");
    }
    if (address.isBlank()) {
      throw new IllegalArgumentException("the address of LocalDNS interface " + name + " is blank");
    }
  }

  /** Whether {@code name} is a name Linux accepts for an interface. */
  public static boolean isInterfaceName(String name) {
    return name != null && NAME.matcher(name).matches() && !name.equals(".") && !name.equals("..");
  }
}
