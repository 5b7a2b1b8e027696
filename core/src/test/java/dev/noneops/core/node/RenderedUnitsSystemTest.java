package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.goalstate.KubeletSpec;
import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.render.StackUnits;
import dev.noneops.core.node.internal.render.UnitFile;
import dev.noneops.core.node.internal.render.UnitFileWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * systemd's own parser ({@code systemd-analyze verify}, offline, no running manager needed)
 * accepts every unit and drop-in the node renders, escaped arguments included. The only
 * complaints allowed are the restart-backoff keys that systemd before 254 does not know and
 * ignores (the containerised node's units carry them too).
 */
class RenderedUnitsSystemTest {
  private static final Path ANALYZE = Path.of("/usr/bin/systemd-analyze");
  private static final String TRUE = "/bin/true";

  @Test
  void systemdParsesEveryRenderedUnit(@TempDir Path dir) throws Exception {
    assumeTrue(Files.isExecutable(ANALYZE), "systemd-analyze is not installed");
    HostPaths paths = HostPaths.realHost();
    LocalDnsSpec dns = new LocalDnsSpec(
        TRUE,
        "localdns0",
        "169.254.20.10",
        53,
        "cluster.local",
        "10.0.0.10",
        List.of("192.0.2.53"));
    ContainerdSpec containerd = new ContainerdSpec(
        "pause", TRUE, TRUE, "/opt/cni/bin", "/etc/cni/net.d", "0.0.0.0:10257", false);
    KubeletSpec kubelet = new KubeletSpec(
        TRUE,
        new KubeletAuth.BootstrapToken("abcdef.0123456789abcdef"),
        "https://api",
        new byte[] {1},
        "169.254.20.10",
        new TreeMap<>(Map.of("example.com/pool", "blue", "node-role.kubernetes.io/worker", "")),
        List.of("a=b:NoSchedule"),
        "/etc/resolv.conf");
    Files.write(
        dir.resolve("localdns.service"),
        StackUnits.localDns(dns, Path.of("/etc/unbounded/localdns/Corefile")));
    Files.write(
        dir.resolve("containerd.service"),
        StackUnits.containerd(containerd, paths.containerdConfig()));
    Files.write(dir.resolve("kubelet.service"), StackUnits.kubelet(kubelet, dns, paths));
    Path dropIns = Files.createDirectories(dir.resolve("kubelet.service.d"));
    for (var e : StackUnits.kubeletDropIns(kubelet, paths).entrySet()) {
      Files.write(dropIns.resolve(e.getKey()), e.getValue());
    }
    Files.write(
        dir.resolve("escaped.service"),
        UnitFileWriter.render(UnitFile.builder()
            .section("Unit")
            .set("Description", "escaping 100% of \"odd\" values")
            .section("Service")
            .exec(
                "ExecStart",
                new UnitFile.Command(
                    "-",
                    "/bin/echo",
                    List.of(
                        new UnitFile.Literal("a b"),
                        new UnitFile.Literal("q\"uote"),
                        new UnitFile.Literal("back\\slash"),
                        new UnitFile.Literal("100%"),
                        new UnitFile.Literal("$HOME"),
                        new UnitFile.Literal(";"),
                        new UnitFile.Literal(""))))
            .env("ODD", "a \"quoted\" %n \\ value")
            .build()));

    for (String unit :
        List.of("localdns.service", "containerd.service", "kubelet.service", "escaped.service")) {
      String out = verify(dir.resolve(unit));
      for (String line : out.split("\n")) {
        if (!line.isBlank()) {
          assertThat(line)
              .as(unit)
              .matches(
                  ".*Unknown key '(RestartMaxDelaySec|RestartSteps)' in section \\[Service\\], ignoring\\.");
        }
      }
    }
  }

  private static String verify(Path unit) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(ANALYZE.toString(), "verify", "--man=no", unit.toString())
        .directory(unit.getParent().toFile())
        .redirectErrorStream(true)
        .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(text).isZero();
    return text;
  }
}
