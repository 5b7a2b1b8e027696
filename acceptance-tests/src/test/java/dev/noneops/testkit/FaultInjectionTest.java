package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.gate.Calls;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Fault rules, crash arming and the call journal. */
class FaultInjectionTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final HostFiles files = host.ports().files();
  private final Path dir = Path.of("/var/lib/app");

  FaultInjectionTest() throws IOException {
    host.fs().seedDirectory(dir, 0755);
  }

  private static Errno errnoOf(Throwable t) {
    return ((HostIOException) t).errno();
  }

  @Test
  void theNthMatchingCallFailsWithTheChosenErrnoAndOnlyIt() throws IOException {
    host.faults().failNth(Calls.to("files.writeDurably"), 2, Errno.ENOSPC);
    files.writeDurably(dir.resolve("a"), "a", 0644);
    assertThatThrownBy(() -> files.writeDurably(dir.resolve("b"), "b", 0644))
        .isInstanceOfSatisfying(HostIOException.class, e -> {
          assertThat(e.errno()).isEqualTo(Errno.ENOSPC);
          assertThat(e.target()).isEqualTo(dir.resolve("b").toString());
        });
    files.writeDurably(dir.resolve("c"), "c", 0644);
    assertThat(files.list(dir)).containsExactly("a", "c");
  }

  @Test
  void everyMatchingCallFails() {
    host.faults().failEvery(Calls.under(dir).and(Calls.mutating()), Errno.EACCES);
    for (String name : new String[] {"a", "b"}) {
      assertThatThrownBy(() -> files.writeDurably(dir.resolve(name), "x", 0644))
          .satisfies(e -> assertThat(errnoOf(e)).isEqualTo(Errno.EACCES));
    }
  }

  @Test
  void aFaultAtAnInternalStepCleansUpTheTempFileLikeTheRealAdapter() throws IOException {
    files.writeDurably(dir.resolve("f"), "old", 0644);
    host.faults()
        .add(FaultRule.when(Calls.to("files.writeDurably"))
            .nth(1)
            .atStep("write")
            .fail(Errno.ENOSPC));
    assertThatThrownBy(() -> files.writeDurably(dir.resolve("f"), "new", 0644))
        .satisfies(e -> assertThat(errnoOf(e)).isEqualTo(Errno.ENOSPC));
    assertThat(files.list(dir)).containsExactly("f");
    assertThat(files.readString(dir.resolve("f"))).isEqualTo("old");
  }

  @Test
  void anIoFaultCannotBeInjectedIntoAPortThatDeclaresNone() {
    host.faults().failEvery(Calls.to("systemd.start"), Errno.EIO);
    assertThatThrownBy(() -> host.ports().systemd().start("x.service", Duration.ofSeconds(1)))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("systemd.start");
  }

  @Test
  void aCrashArmedAtTheNthMutatingCallFiresBeforeThatCallChangesAnything() throws IOException {
    files.writeDurably(dir.resolve("before"), "x", 0644);
    host.faults().crashAtMutatingCall(2);
    files.read(dir.resolve("before"));
    files.writeDurably(dir.resolve("first"), "1", 0644);
    assertThatThrownBy(() -> files.writeDurably(dir.resolve("second"), "2", 0644))
        .isInstanceOfSatisfying(
            SimulatedCrash.class, c -> assertThat(c.getMessage()).contains("files.writeDurably"));
    host.crash();
    assertThat(files.list(dir)).containsExactly("before", "first");
    files.writeDurably(dir.resolve("after"), "works again", 0644);
  }

  @Test
  void theJournalRecordsEveryCallInOrderWithItsArguments() throws IOException {
    host.journal().clear();
    files.writeDurably(dir.resolve("f"), "x", 0600);
    files.lstat(dir.resolve("f"));
    assertThat(host.journal().calls())
        .extracting(PortCall::toString)
        .containsExactly(
            "files.writeDurably(/var/lib/app/f, 0600) *", "files.lstat(/var/lib/app/f)");
    assertThat(host.journal().mutatingCallCount()).isEqualTo(1);
    assertThat(host.journal().indexOf(c -> c.is("files.lstat", dir.resolve("f").toString())))
        .isPositive();
  }

  @Test
  void aSimulatedCrashIsAnErrorSoCatchingExceptionDoesNotSwallowIt() {
    host.faults().crashAtMutatingCall(1);
    assertThatThrownBy(() -> {
          try {
            files.writeDurably(dir.resolve("f"), "x", 0644);
          } catch (Exception swallowed) {
            // production code catching Exception must not stop the crash
          }
        })
        .isInstanceOf(SimulatedCrash.class);
  }
}
