package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The LocalDNS address is found in {@code ip -o addr} output whatever else the interface carries. */
class LocalDnsNetworkTest {
  private static final String TWO_ADDRESSES =
      "7: localdns0    inet 169.254.20.10/32 scope global localdns0\\       valid_lft forever preferred_lft forever\n"
          + "7: localdns0    inet6 fe80::1/64 scope link \\       valid_lft forever preferred_lft forever\n";

  @Test
  void anAssignedAddressIsFound() {
    assertThat(LocalDnsNetwork.listsAddress(TWO_ADDRESSES, "169.254.20.10/32")).isTrue();
    assertThat(LocalDnsNetwork.listsAddress(TWO_ADDRESSES, "fe80::1/64")).isTrue();
  }

  @Test
  void anotherAddressOrPrefixIsNotTakenForIt() {
    assertThat(LocalDnsNetwork.listsAddress(TWO_ADDRESSES, "169.254.20.1/32")).isFalse();
    assertThat(LocalDnsNetwork.listsAddress(TWO_ADDRESSES, "169.254.20.10/24")).isFalse();
    assertThat(LocalDnsNetwork.listsAddress("", "169.254.20.10/32")).isFalse();
  }
}
