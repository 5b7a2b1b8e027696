package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A change of an API listing is told as the members added and removed, each with its type. */
class ApiDiffTest {
  @Test
  void aRenamedMemberIsOneRemovedAndOneAddedLineNamingItsType() {
    List<String> before =
        List.of("public final class a.A {", "  public void start()", "  public void stop()", "}");
    List<String> after =
        List.of("public final class a.A {", "  public void begin()", "  public void stop()", "}");

    assertThat(ApiDiff.between(before, after))
        .containsExactly(
            "- public final class a.A :: public void start()",
            "+ public final class a.A :: public void begin()");
  }

  @Test
  void aTypeThatStopsBeingPublicLosesItsHeaderAndEveryMember() {
    List<String> before =
        List.of("public class a.A {", "}", "public class a.B {", "  public int size()", "}");
    List<String> after = List.of("public class a.A {", "}");

    assertThat(ApiDiff.between(before, after))
        .containsExactly("- public class a.B", "- public class a.B :: public int size()");
  }

  @Test
  void equalListingsHaveNoChange() {
    List<String> listing = List.of(
        "public interface a.Port {",
        "  public abstract void run() throws java.io.IOException",
        "}");

    assertThat(ApiDiff.between(listing, listing)).isEmpty();
  }
}
