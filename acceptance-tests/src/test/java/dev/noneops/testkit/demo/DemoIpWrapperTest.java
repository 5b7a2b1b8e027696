package dev.noneops.testkit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.network.IpHostNetwork;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.network.HostNetwork;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a kernel without dummy links, the demo's {@code ip} wrapper gives the node a link it takes
 * for its dummy interface, so an upgrade (which reads the link's kind before it puts LocalDNS's
 * address on it again) and the reset (which removes only dummy links) treat it as the node's.
 * Runs in a network namespace of its own.
 */
class DemoIpWrapperTest {
  private static final RealHost HOST = RealHost.create();

  @TempDir Path temp;

  @Test
  void theLinkTheWrapperMakesForADummyIsReadAsADummyAndCanBeSetUpAgainAndRemoved() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/unshare")), "needs root and unshare");
    String realIp = Files.isExecutable(Path.of("/usr/bin/ip")) ? "/usr/bin/ip" : "/sbin/ip";
    Path wrapper = temp.resolve("ip");
    Files.writeString(wrapper, LifecycleDemo.ipWrapper(realIp), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    Process holder = new ProcessBuilder("unshare", "--net", "sh", "-c", "echo ready; exec sleep infinity").start();
    try {
      assertThat(new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8)).readLine()).isEqualTo("ready");
      CommandRunner throughTheWrapper = command -> {
        List<String> argv = new ArrayList<>(List.of("nsenter", "--target", Long.toString(holder.pid()), "--net", "--", wrapper.toString()));
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return HOST.commands().run(new Command(argv, command.env(), command.timeout(), command.maxOutputBytes()));
      };
      HostNetwork network = new IpHostNetwork(throughTheWrapper, RealHost.KERNEL_COMMAND_TIMEOUT);

      network.addDummyLink("localdns0");
      assertThat(network.link("localdns0").orElseThrow().isDummy()).as("the upgrade's check of the link's kind").isTrue();
      network.assignAddress("localdns0", "169.254.20.53/32");
      network.setUp("localdns0");
      assertThat(network.link("localdns0").orElseThrow().addresses()).contains("169.254.20.53/32");
      network.deleteLink("localdns0");
      assertThat(network.link("localdns0")).isEmpty();
    } finally {
      holder.destroyForcibly();
      holder.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
