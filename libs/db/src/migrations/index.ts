import { ApiKeys1763700000000 } from './1763700000000-api-keys';
import { DataModel1763700100000 } from './1763700100000-data-model';
import { IngestSupport1763700200000 } from './1763700200000-ingest-support';
import { ScoreDocuments1763700300000 } from './1763700300000-score-documents';
import { Monitors1763700400000 } from './1763700400000-monitors';
import { ReadApiIndexes1763700500000 } from './1763700500000-read-api-indexes';
import { DropUnusedEventIndex1763700600000 } from './1763700600000-drop-unused-event-index';
import { ChangeNotifications1763700700000 } from './1763700700000-change-notifications';
import { ManagementProgram1763700800000 } from './1763700800000-management-program';
import { RunDatasetMetadata1763701400000 } from './1763701400000-run-dataset-metadata';
import { RodentInspectionKeys1763701500000 } from './1763701500000-rodent-inspection-keys';
import { RevokedKeyMonitors1763701600000 } from './1763701600000-revoked-key-monitors';
import { CompactEvents1763701700000 } from './1763701700000-compact-events';
import { VanishedRegistrations1763701800000 } from './1763701800000-vanished-registrations';
import { CompactEventRecords1763701900000 } from './1763701900000-compact-event-records';
import { ScoringRunParts1763702000000 } from './1763702000000-scoring-run-parts';
import { CompactComplaintProblems1763702100000 } from './1763702100000-compact-complaint-problems';
import { DescriptionsInRecords1763702200000 } from './1763702200000-descriptions-in-records';
import { DropEventTimestamps1763702300000 } from './1763702300000-drop-event-timestamps';
import { EventCodeTypes1763702400000 } from './1763702400000-event-code-types';
import { DuplicateMarkColumn1763702500000 } from './1763702500000-duplicate-mark-column';
import { ComplaintProblemStrings1763702600000 } from './1763702600000-complaint-problem-strings';
import { ZstdEventRecords1763702700000 } from './1763702700000-zstd-event-records';
import { DeferredEventIndexes1763702800000 } from './1763702800000-deferred-event-indexes';
import { AreaReportingIndex1763702900000 } from './1763702900000-area-reporting-index';
import { SettledHistories1763703000000 } from './1763703000000-settled-histories';

/** Every migration, in order. New migrations are appended here. */
export const MIGRATIONS = [ApiKeys1763700000000, DataModel1763700100000, IngestSupport1763700200000, ScoreDocuments1763700300000, Monitors1763700400000, ReadApiIndexes1763700500000, DropUnusedEventIndex1763700600000, ChangeNotifications1763700700000, ManagementProgram1763700800000, RunDatasetMetadata1763701400000, RodentInspectionKeys1763701500000, RevokedKeyMonitors1763701600000, CompactEvents1763701700000, VanishedRegistrations1763701800000, CompactEventRecords1763701900000, ScoringRunParts1763702000000, CompactComplaintProblems1763702100000, DescriptionsInRecords1763702200000, DropEventTimestamps1763702300000, EventCodeTypes1763702400000, DuplicateMarkColumn1763702500000, ComplaintProblemStrings1763702600000, ZstdEventRecords1763702700000, DeferredEventIndexes1763702800000, AreaReportingIndex1763702900000, SettledHistories1763703000000];
