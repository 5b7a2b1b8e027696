package dev.noneops.acceptance.contract.real;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.hostfs.host.LinuxHostFacts;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.testkit.contract.HostFactsContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link HostFacts} contract on {@link LinuxHostFacts}, over a proc tree the test lays out
 * ({@code self/status}, {@code swaps}, the boot id) and a host root on this machine's file system; plus the
 * adapter on the machine's own {@code /proc}.
 */
class RealHostFactsContractTest extends HostFactsContract {
  @TempDir
  Path tmp;

  private Path proc;
  private Path host;
  private HostFacts facts;

  @BeforeEach
  void layOutAProcTree() throws IOException {
    proc = Files.createDirectories(tmp.resolve("proc"));
    host = Files.createDirectories(tmp.resolve("host"));
    Files.createDirectories(proc.resolve("self"));
    Files.createDirectories(proc.resolve("sys/kernel"));
    Files.writeString(proc.resolve("sys/kernel/osrelease"), "6.1.0\n");
    Files.writeString(proc.resolve("sys/kernel/hostname"), "node\n");
    Files.createDirectories(proc.resolve("sys/kernel/random"));
    Files.writeString(
        proc.resolve("sys/kernel/random/boot_id"), "6f1c2a0e-4b8d-4f57-9a3e-2d5c7b1e9f04\n");
    Files.createDirectories(host.resolve("var/lib"));
    facts = new LinuxHostFacts(proc, host, "amd64");
  }

  @Override
  protected HostFacts facts() {
    return facts;
  }

  @Override
  protected void runAs(boolean effectiveRoot) throws IOException {
    Files.writeString(
        proc.resolve("self/status"),
        "Name:\tjava\nUmask:\t0022\nUid:\t1000\t" + (effectiveRoot ? "0" : "1000")
            + "\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\n");
  }

  @Override
  protected void swapOn(List<String> areas) throws IOException {
    StringBuilder swaps = new StringBuilder("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
    for (String area : areas) {
      swaps.append(area).append("                               file\t\t2097148\t\t0\t\t-2\n");
    }
    Files.writeString(proc.resolve("swaps"), swaps);
  }

  @Override
  protected Path existingDirectory() {
    return Path.of("/var/lib");
  }

  @Test
  void onThisMachinesProcItAnswersAsTheProcessRuns() throws IOException {
    LinuxHostFacts own = new LinuxHostFacts(Path.of("/proc"), Path.of("/"), "amd64");
    boolean root = Files.readString(Path.of("/proc/self/status")).contains("\nUid:\t")
        && Files.readString(Path.of("/proc/self/status"))
            .lines()
            .filter(l -> l.startsWith("Uid:"))
            .anyMatch(l -> l.split("\\s+")[2].equals("0"));

    assertThat(own.privileged()).isEqualTo(root);
    // other processes write to / meanwhile: the answer lies between two readings of the JDK's
    long before = Files.getFileStore(Path.of("/")).getUsableSpace();
    long ours = own.usableBytes(Path.of("/"));
    long after = Files.getFileStore(Path.of("/")).getUsableSpace();
    long slack = 64L << 20;
    assertThat(ours).isBetween(Math.min(before, after) - slack, Math.max(before, after) + slack);
    assertThat(own.bootId())
        .isEqualTo(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip());
  }
}
