package dev.noneops.acceptance.contract.real;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.kernel.CommandKernelTuning;
import dev.noneops.ports.kernel.KernelTuning;
import dev.noneops.testkit.contract.KernelTuningContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link KernelTuning} contract on the real kernel, through {@code modprobe} and
 * {@code sysctl}, inside a network and mount namespace of the test's own whose preset directories
 * are empty: the presets it applies are the test's and set only {@code net.*} keys of its own
 * network namespace; the machine's kernel settings stay as they are. Modules are only loaded when
 * already loaded (which changes nothing) or looked for under a name no kernel has.
 */
class RealKernelTuningContractTest extends KernelTuningContract {
  private static final RealHost HOST = RealHost.create();
  private static final List<Path> MODPROBE =
      List.of(Path.of("/usr/sbin/modprobe"), Path.of("/sbin/modprobe"));

  private PrivateKernelNamespace namespace;
  private KernelTuning tuning;

  @BeforeEach
  void enterAKernelViewOfItsOwn() throws IOException {
    String whyNot = PrivateKernelNamespace.whyNot();
    assumeTrue(whyNot.isEmpty(), whyNot);
    namespace = PrivateKernelNamespace.create();
    tuning = new CommandKernelTuning(
        namespace.commands(HOST.commands()), RealHost.KERNEL_COMMAND_TIMEOUT);
  }

  @AfterEach
  void dropIt() throws InterruptedException {
    if (namespace != null) {
      namespace.close();
    }
  }

  @Override
  protected KernelTuning tuning() {
    return tuning;
  }

  @Override
  protected void writePreset(String name, String content) throws IOException {
    Files.writeString(namespace.inside("/etc/sysctl.d/" + name), content, StandardCharsets.UTF_8);
  }

  @Override
  protected Optional<String> loadedModule() throws IOException {
    Path modules = Path.of("/proc/modules");
    if (!hasModprobe() || !Files.exists(modules)) {
      return Optional.empty();
    }
    return Files.readAllLines(modules).stream().map(l -> l.split(" ", 2)[0]).findFirst();
  }

  @Override
  protected Optional<String> missingModule() {
    return hasModprobe() ? Optional.of("noneops_no_such_module") : Optional.empty();
  }

  /** A module {@code /sys/module} shows (loaded or built in), of those a node or a distro uses. */
  @Override
  protected Optional<String> moduleInForce() {
    return Stream.of("overlay", "br_netfilter", "nf_conntrack", "ext4", "loop")
        .filter(m -> Files.isDirectory(Path.of("/sys/module", m)))
        .findFirst();
  }

  private static boolean hasModprobe() {
    return MODPROBE.stream().anyMatch(Files::isExecutable);
  }
}
