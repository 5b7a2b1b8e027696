package dev.noneops.testkit.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a sandbox reads from its systemd about a boot, parsed from real output of systemd 252. */
class BootRecordsParsingTest {
  private static final String SHOW = """
      Id=b.service
      ActiveState=active
      SubState=running
      Result=success
      InactiveExitTimestampMonotonic=9672832232
      ActiveEnterTimestampMonotonic=9672832232
      ExecMainExitTimestampMonotonic=0
      InactiveExitTimestamp=Tue 2026-12-01 08:59:55.903311 UTC
      ActiveEnterTimestamp=Tue 2026-12-01 08:59:55.903311 UTC

      Id=never.service
      ActiveState=inactive
      SubState=dead
      Result=success
      InactiveExitTimestampMonotonic=0
      ActiveEnterTimestampMonotonic=0
      ExecMainExitTimestampMonotonic=0
      InactiveExitTimestamp=
      ActiveEnterTimestamp=

      Id=a.service
      ActiveState=active
      SubState=exited
      Result=success
      InactiveExitTimestampMonotonic=9672523185
      ActiveEnterTimestampMonotonic=9672826276
      ExecMainExitTimestampMonotonic=9672826134
      InactiveExitTimestamp=Tue 2026-12-01 08:59:55.594236 UTC
      ActiveEnterTimestamp=Tue 2026-12-01 08:59:55.897327 UTC
      """;

  @Test
  void unitTimesComeInStartOrderWithTheUnitsThatDidNotStartLast() {
    List<UnitTimes> times =
        UnitTimes.parseShow(List.of("b.service", "never.service", "a.service"), SHOW);

    assertThat(times)
        .extracting(UnitTimes::unit)
        .containsExactly("a.service", "b.service", "never.service");
    UnitTimes a = times.get(0);
    assertThat(a.subState()).isEqualTo("exited");
    assertThat(a.startedMonotonicMicros()).isEqualTo(9672523185L);
    assertThat(a.activeMonotonicMicros()).isEqualTo(9672826276L);
    assertThat(a.mainExitMonotonicMicros()).isEqualTo(9672826134L);
    assertThat(a.startedAt()).contains(Instant.parse("2026-12-01T08:59:55.594236Z"));
    assertThat(a.activeAt()).contains(Instant.parse("2026-12-01T08:59:55.897327Z"));
    assertThat(times.get(2).started()).isFalse();
    assertThat(times.get(2).startedAt()).isEmpty();
  }

  @Test
  void aUnitFinishedBeforeAnotherOnlyIfItBecameActiveBeforeTheOtherBeganToStart() {
    List<UnitTimes> times =
        UnitTimes.parseShow(List.of("b.service", "never.service", "a.service"), SHOW);
    UnitTimes a = times.get(0);
    UnitTimes b = times.get(1);
    UnitTimes never = times.get(2);

    assertThat(a.finishedBefore(b)).isTrue();
    assertThat(b.finishedBefore(a)).isFalse();
    assertThat(a.finishedBefore(never)).isFalse();
    assertThat(never.finishedBefore(a)).isFalse();
  }

  @Test
  void anAnswerForFewerUnitsThanAskedIsRefused() {
    assertThatThrownBy(() -> UnitTimes.parseShow(List.of("a.service", "b.service"), """
            Id=a.service
            ActiveState=inactive
            """))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("described 1 units, not 2");
  }

  @Test
  void jobResultsAreTheCataloguedMessagesOfCompletedJobsOnly() {
    String journal = """
        {"__CURSOR":"s=1;i=1","__REALTIME_TIMESTAMP":"1796115913021000","__MONOTONIC_TIMESTAMP":"9990250600","_BOOT_ID":"3c43","UNIT":"a.service","JOB_TYPE":"start","MESSAGE_ID":"7d4958e842da4a758f6c1cdc7b36dcc5"}
        {"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1796115913021234","__MONOTONIC_TIMESTAMP":"9990250644","_BOOT_ID":"3c43","UNIT":"a.service","JOB_TYPE":"start","JOB_RESULT":"failed","MESSAGE_ID":"be02cf6855d2428ba40df7e9d022f03d"}
        {"__CURSOR":"s=1;i=3","__REALTIME_TIMESTAMP":"1796115913021511","__MONOTONIC_TIMESTAMP":"9990250660","_BOOT_ID":"3c43","UNIT":"b.service","JOB_TYPE":"start","JOB_RESULT":"dependency","MESSAGE_ID":"be02cf6855d2428ba40df7e9d022f03d"}
        {"__CURSOR":"s=1;i=4","__REALTIME_TIMESTAMP":"1796115913021525","__MONOTONIC_TIMESTAMP":"9990250674","_BOOT_ID":"3c43","UNIT":"b.service","JOB_TYPE":"start","JOB_RESULT":"dependency"}
        """;

    assertThat(JobResult.parseJournalJson(journal))
        .containsExactly(
            new JobResult(
                "a.service",
                "start",
                "failed",
                9990250644L,
                Instant.parse("2026-12-01T09:05:13.021234Z")),
            new JobResult(
                "b.service",
                "start",
                "dependency",
                9990250660L,
                Instant.parse("2026-12-01T09:05:13.021511Z")));
  }
}
