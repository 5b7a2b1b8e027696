package dev.noneops.testkit.contract;

import static dev.noneops.testkit.contract.ContractAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.ports.Errno;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.ports.network.NetworkLink;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link HostNetwork} contract. A subclass supplies the port over a network of its own (the
 * real one runs in a network namespace the test made, never the machine's), a way to give that
 * network a link of another kind, and whether its kernel makes dummy links at all (a kernel built
 * without them refuses them; the contract then checks that refusal, not a pretended dummy).
 */
public abstract class HostNetworkContract {
  private static final String ADDRESS = "169.254.77.1/32";

  protected abstract HostNetwork network();

  /** Creates a link of {@code kind} (e.g. {@code bridge}) outside the port, as another program would. */
  protected abstract void addLinkOfKind(String name, String kind) throws IOException;

  /** Whether this network's kernel creates dummy links. */
  protected abstract boolean makesDummyLinks() throws IOException;

  /**
   * Binds a socket of another program on the host: a listening TCP one, or a bound UDP one;
   * closing the handle closes it.
   */
  protected abstract AutoCloseable bind(String transport, String address, int port)
      throws Exception;

  @Test
  void theSocketsBoundToAPortAreListedWithTheirTransportAndAddress() throws Exception {
    assertThat(network().listeners(47113)).isEmpty();
    try (AutoCloseable tcp = bind(Listener.TCP, "127.0.0.1", 47113);
        AutoCloseable udp = bind(Listener.UDP, "0.0.0.0", 47114)) {
      assertThat(network().listeners(47113))
          .containsExactly(new Listener(Listener.TCP, "127.0.0.1", 47113));
      List<Listener> udpListeners = network().listeners(47114);
      assertThat(udpListeners).containsExactly(new Listener(Listener.UDP, "0.0.0.0", 47114));
      assertThat(udpListeners.get(0).wildcard()).isTrue();
      assertThat(network().listeners(47115)).as("another port").isEmpty();
    }
    assertThat(network().listeners(47113)).as("closed again").isEmpty();
    assertThatThrownBy(() -> network().listeners(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aLinkThatIsNotThereIsEmpty() throws IOException {
    assertThat(network().link("ct-none0")).isEmpty();
  }

  @Test
  void everyLinkIsListedByNameWhateverItsKind() throws IOException {
    assertThat(network().linkNames()).contains("lo").doesNotContain("ct-br3");
    addLinkOfKind("ct-br3", "bridge");
    List<String> names = network().linkNames();
    assertThat(names).contains("lo", "ct-br3").isSorted();
    network().deleteLink("ct-br3");
    assertThat(network().linkNames()).doesNotContain("ct-br3");
  }

  @Test
  void loopbackIsALinkWithoutAKind() throws IOException {
    NetworkLink lo = network().link("lo").orElseThrow();
    assertThat(lo.name()).isEqualTo("lo");
    assertThat(lo.kind()).isEmpty();
    assertThat(lo.isDummy()).isFalse();
  }

  @Test
  void aDummyLinkIsAddedDownWithoutAddressesThenAddressedSetUpAndDeleted() throws IOException {
    assumeTrue(makesDummyLinks(), "this kernel has no dummy links");
    network().addDummyLink("ct-dummy0");
    NetworkLink added = network().link("ct-dummy0").orElseThrow();
    assertThat(added.isDummy()).isTrue();
    assertThat(added.up()).isFalse();
    assertThat(added.addresses()).isEmpty();

    network().assignAddress("ct-dummy0", ADDRESS);
    network().setUp("ct-dummy0");
    NetworkLink ready = network().link("ct-dummy0").orElseThrow();
    assertThat(ready.up()).isTrue();
    assertThat(ready.addresses()).contains(ADDRESS);

    network().deleteLink("ct-dummy0");
    assertThat(network().link("ct-dummy0")).isEmpty();
  }

  @Test
  void aDummyLinkAddedUpIsUpWithoutAddresses() throws IOException {
    assumeTrue(makesDummyLinks(), "this kernel has no dummy links");
    network().addUpDummyLink("ct-dummy1");
    NetworkLink added = network().link("ct-dummy1").orElseThrow();
    assertThat(added.isDummy()).isTrue();
    assertThat(added.up()).isTrue();
    assertThat(added.addresses()).isEmpty();
    network().deleteLink("ct-dummy1");
  }

  @Test
  void aKernelWithoutDummyLinksRefusesOneAddedUpWithEopnotsuppAndAddsNothing() throws IOException {
    assumeFalse(makesDummyLinks(), "this kernel has dummy links");
    failsWith(() -> network().addUpDummyLink("ct-dummy1"), Errno.EOPNOTSUPP);
    assertThat(network().link("ct-dummy1")).isEmpty();
  }

  @Test
  void aNameThatIsTakenIsEexistForALinkAddedUpAndItStaysAsItWas() throws IOException {
    addLinkOfKind("ct-br2", "bridge");
    failsWith(() -> network().addUpDummyLink("ct-br2"), Errno.EEXIST);
    NetworkLink kept = network().link("ct-br2").orElseThrow();
    assertThat(kept.kind()).isEqualTo("bridge");
    assertThat(kept.up()).isFalse();
  }

  @Test
  void aKernelWithoutDummyLinksRefusesOneWithEopnotsuppAndAddsNothing() throws IOException {
    assumeFalse(makesDummyLinks(), "this kernel has dummy links");
    failsWith(() -> network().addDummyLink("ct-dummy0"), Errno.EOPNOTSUPP);
    assertThat(network().link("ct-dummy0")).isEmpty();
  }

  @Test
  void aNameThatIsTakenIsEexistWhateverTheKindOfItsLink() throws IOException {
    addLinkOfKind("ct-br0", "bridge");
    failsWith(() -> network().addDummyLink("ct-br0"), Errno.EEXIST);
    assertThat(network().link("ct-br0").orElseThrow().kind()).isEqualTo("bridge");
  }

  @Test
  void anAddressAssignedTwiceIsThereOnce() throws IOException {
    addLinkOfKind("ct-br1", "bridge");
    network().assignAddress("ct-br1", ADDRESS);
    network().assignAddress("ct-br1", ADDRESS);
    assertThat(network().link("ct-br1").orElseThrow().addresses()).containsOnlyOnce(ADDRESS);
  }

  @Test
  void aLinkSetUpIsUpAndSettingItUpAgainChangesNothing() throws IOException {
    addLinkOfKind("ct-br2", "bridge");
    assertThat(network().link("ct-br2").orElseThrow().up()).isFalse();
    network().setUp("ct-br2");
    network().setUp("ct-br2");
    assertThat(network().link("ct-br2").orElseThrow().up()).isTrue();
  }

  @Test
  void deletingALinkRemovesItWithItsAddresses() throws IOException {
    addLinkOfKind("ct-br3", "bridge");
    network().assignAddress("ct-br3", ADDRESS);
    network().deleteLink("ct-br3");
    assertThat(network().link("ct-br3")).isEmpty();
  }

  @Test
  void changingALinkThatIsNotThereIsEnodev() {
    failsWith(() -> network().assignAddress("ct-none0", ADDRESS), Errno.ENODEV);
    failsWith(() -> network().setUp("ct-none0"), Errno.ENODEV);
    failsWith(() -> network().deleteLink("ct-none0"), Errno.ENODEV);
  }

  @Test
  void aNameLinuxRejectsIsRefusedBeforeTheHostIsAsked() throws IOException {
    assertThatThrownBy(() -> network().addDummyLink("no spaces"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'no spaces'");
    assertThatThrownBy(() -> network().link("a/b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> network().deleteLink("sixteen-chars-xx"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> network().assignAddress("lo", "not-an-address"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(network().link("lo").orElseThrow().addresses()).doesNotContain("not-an-address");
  }
}
