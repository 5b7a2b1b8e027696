package dev.noneops.testkit.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a kernel without dummy links a CLI and the units inside a sandbox run an {@code ip} wrapper
 * ({@link DummyLinkStandIn#shellWrapper}): the link it makes for LocalDNS must be one the node
 * accepts as its dummy interface.
 */
class IpWrapperTest {
  @TempDir
  Path dir;

  /** Runs the wrapper over a stand-in {@code ip} that prints its arguments, or a JSON link list of an ifb link for {@code -j}. */
  private String run(String... args) throws IOException, InterruptedException {
    Path realIp = dir.resolve("real-ip");
    Files.writeString(realIp, """
        #!/bin/sh
        case " $* " in
          *" -j "*) echo '[{"ifname":"localdns0","linkinfo":{"info_kind":"ifb"}}]' ;;
          *) echo "ip $*" ;;
        esac
        """, StandardCharsets.UTF_8);
    Path wrapper = dir.resolve("ip");
    Files.writeString(
        wrapper, DummyLinkStandIn.shellWrapper(realIp.toString()), StandardCharsets.UTF_8);
    for (Path script : List.of(realIp, wrapper)) {
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Process p = new ProcessBuilder(concat(wrapper.toString(), args))
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out.strip();
  }

  private static List<String> concat(String first, String... rest) {
    return Stream.concat(Stream.of(first), Stream.of(rest)).toList();
  }

  @Test
  void aDummyLinkIsMadeAsAnIfbLinkWhichCarriesAddressesOnlyAsADummyDoes() throws Exception {
    assertThat(run("link", "add", "localdns0", "type", "dummy"))
        .isEqualTo("ip link add localdns0 type ifb");
  }

  @Test
  void theLinkListReportsTheIfbLinkAsTheDummyTheNodeAskedFor() throws Exception {
    assertThat(run("-j", "-d", "link", "show", "localdns0"))
        .contains("\"info_kind\":\"dummy\"")
        .doesNotContain("ifb");
  }

  @Test
  void everyOtherCommandPassesThroughUnchanged() throws Exception {
    assertThat(run("addr", "add", "169.254.10.10/32", "dev", "localdns0"))
        .isEqualTo("ip addr add 169.254.10.10/32 dev localdns0");
  }
}
