/**
 * Sentences about jobs (files, the schedule, runs, ceilings), in English and Turkish.
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";

/** The jobs sentences in English: the catalogue every language follows. */
const EN = {
  no_front_matter: "{file}: must start with a front matter block between two --- lines.",
  unclosed: "{file}: the front matter has no closing --- line.",
  bad_line: "{file}: line {line} of the front matter is not 'key: value'.",
  unknown_key:
    "{file}: front matter has an unknown key '{key}' (keys: schedule, tz, role, max_usd_per_run, max_usd_per_day, deliver, missed, tools, mcp).",
  duplicate_key: "{file}: front matter sets '{key}' twice.",
  missing: "{file}: front matter needs '{key}'.",
  bad_name: "{file}: a job's name must match ^[a-z][a-z0-9-]{1,30}$.",
  bad_schedule: "{file}: front matter 'schedule' is not a cron expression: {detail}.",
  never: "{file}: front matter 'schedule' never runs.",
  bad_tz: "{file}: front matter 'tz' must be a time zone such as Europe/Istanbul, not '{value}'.",
  unknown_role:
    "{file}: front matter 'role' names '{name}', which is not a role in [models.roles].",
  positive: "{file}: front matter '{key}' must be a positive number.",
  one_of: "{file}: front matter '{key}' must be one of {values}.",
  empty_prompt: "{file}: the prompt after the front matter must not be empty.",
  slash_prompt: "{file}: the prompt must not start with '/', which would run a slash command.",
  day_below_run:
    "{file}: front matter 'max_usd_per_day' must be at least 'max_usd_per_run' ({run}).",
  // The same problems in 'agent jobs add', named by the option that carries them.
  opt_bad_name: "A job's name must match ^[a-z][a-z0-9-]{1,30}$, not '{name}'.",
  opt_bad_schedule: "--schedule '{value}' is not a cron expression: {detail}.",
  opt_never: "--schedule '{value}' never runs.",
  opt_bad_tz: "--tz must be a time zone such as Europe/Istanbul, not '{value}'.",
  opt_unknown_role: "--role names '{name}', which is not a role in [models.roles].",
  opt_positive: "--{flag} must be a positive number of dollars.",
  opt_one_of: "--{flag} must be one of {values}, not '{value}'.",
  opt_empty_prompt: "--prompt must not be empty.",
  opt_slash_prompt: "--prompt must not start with '/', which would run a slash command.",
  opt_day_below_run: "--max-usd-per-day must be at least --max-usd-per-run ({run}).",
  // Runs, ceilings, the CLI.
  estimate: "Estimated cost: {run} per run, {day} per day ({runs} run(s) a day).",
  estimate_unpriced: "Estimated cost: unknown, {model} has no price in agent.toml.",
  over_ceiling:
    "Cannot add job '{name}': one run may cost up to {run}, more than its max_usd_per_run of {cap}.",
  unpriced_ceiling:
    "Cannot add job '{name}': {model} has no price, so its max_usd_per_run cannot be enforced.",
  exists: "Job '{name}' exists already; remove it first or edit {file}.",
  no_job: "No job '{name}' in persona/jobs/.",
  added: "Added job '{name}'; next run {next}.",
  removed: "Removed job '{name}'.",
  paused: "Paused job '{name}'.",
  resumed: "Resumed job '{name}'.",
  paused_all: "Paused all jobs; no job runs until {resume}.",
  resumed_all: "Resumed all jobs.",
  resumed_all_kept:
    "Pause all is lifted; these jobs stay paused on their own until you resume each: {names}.",
  paused_here:
    "Paused job '{name}' on this hub only: the spine did not answer ({detail}). The pause is sent to it before this hub's next run (or by 'agent jobs list'); until then the identity's other hub may still run the job.",
  paused_all_here:
    "Paused all jobs on this hub only: the spine did not answer ({detail}). The pause is sent to it before this hub's next run (or by 'agent jobs list'); until then the identity's other hub may still run jobs.",
  resume_unreachable:
    "Cannot resume job '{name}': the spine that holds the pauses of both hubs did not answer ({detail}); the job stays paused. Try again when it answers.",
  resume_all_unreachable:
    "Cannot resume the jobs: the spine that holds the pauses of both hubs did not answer ({detail}); they stay paused. Try again when it answers.",
  pauses_stale:
    "The spine did not answer ({detail}): the pauses shown are what this hub last knew.",
  none: "No jobs. 'agent jobs add NAME --schedule EXPR --prompt TEXT' adds one.",
  no_log: "No runs yet.",
  list_when: "{name}  {when}{state}",
  list_next: "  next {next}  last {last}",
  list_spent: "  today {today}  30 days {month}",
  state_ok: "ok",
  state_failed: "failed",
  state_missed: "missed",
  state_refused: "refused",
  state_running: "running",
  state_interrupted: "interrupted",
  state_taken: "taken",
  state_paused: "paused",
  reason_owner: "owner",
  reason_day: "day",
  reason_run: "run",
  reason_budget: "budget",
  log_missed: " (missed)",
  list_paused: "  [paused: {reason}]",
  delivered: "Job {name} ({usd}):\n{text}",
  failed_told: "Job {name} failed: {detail}",
  ceiling_day:
    "Job {name} is paused: today's spend {spent} and one more run would pass its max_usd_per_day of {cap}. Its day starts anew at 00:00 (Istanbul): 'agent jobs resume {name}' lets it run from then on; to run it today, raise max_usd_per_day in persona/jobs/{name}.md first.",
  resumed_day_spent:
    "Resumed job '{name}'. Today's spend {spent} leaves less than one run under its max_usd_per_day of {cap}, so it runs again after 00:00 (Istanbul), or sooner once max_usd_per_day in persona/jobs/{name}.md is raised.",
  paused_day:
    "Job {name} is paused at its max_usd_per_day of {cap}: it can run again after 00:00 (Istanbul), once 'agent jobs resume {name}' resumes it, or today once max_usd_per_day in persona/jobs/{name}.md is raised and it is resumed.",
  paused_owner: "Job {name} is paused; 'agent jobs resume {name}' resumes it.",
  paused_every: "All jobs are paused; 'agent jobs resume --all' resumes them.",
  still_running_now:
    "Job {name} did not run: its run that began at {since} is still going (in this or another process). Try again when it ends.",
  ceiling_run:
    "Job {name} is paused: a call would have passed its max_usd_per_run of {cap}. 'agent jobs resume {name}' resumes it.",
  budget_spent:
    "Job {name} is paused: the budget of role {role} is spent. 'agent jobs resume {name}' resumes it.",
  missed_told: "Job {name} missed {count} run(s) while no hub ran (last {slot}); {what}.",
  missed_once: "it runs once now",
  missed_skip: "they are skipped",
  run_ceiling: "the job's max_usd_per_run of {cap} would be passed",
  global_paused: "All jobs are paused.",
  still_running: "skipped: the previous run was still running",
  jobs_line: "jobs: {count} ({paused} paused){all}",
  jobs_all_paused: ", all paused",
  delivery_dropped:
    "The answer of job {name} ({slot}) could not be delivered to {target}: {detail}. It is in 'agent jobs log'.",
  interrupted: "interrupted: the hub stopped during the run; not run again",
  interrupted_told:
    "Job {name} was interrupted: the hub stopped during its run of {slot} ({usd} spent); it is not run again.",
  taken: "run by the other hub of this identity",
  run_cancelled: "cancelled: the run was stopped before it answered",
  run_closed: "not run: the hub closed before its turn came",
  run_no_answer: "no answer: the prompt ran no turn",
  spine_unreachable:
    "not run: the spine that holds the slots of both hubs did not answer ({detail})",
} as const;

/** The same in Turkish. */
const TR: { readonly [K in keyof typeof EN]: string } = {
  no_front_matter: "{file}: iki --- satırı arasında bir ön bilgi bloğuyla başlamalı.",
  unclosed: "{file}: ön bilgi bloğunun kapanış --- satırı yok.",
  bad_line: "{file}: ön bilgi bloğunun {line}. satırı 'anahtar: değer' biçiminde değil.",
  unknown_key:
    "{file}: ön bilgi bloğunda bilinmeyen anahtar '{key}' (anahtarlar: schedule, tz, role, max_usd_per_run, max_usd_per_day, deliver, missed, tools, mcp).",
  duplicate_key: "{file}: ön bilgi bloğu '{key}' anahtarını iki kez veriyor.",
  missing: "{file}: ön bilgi bloğu için '{key}' gerekli.",
  bad_name: "{file}: bir görevin adı ^[a-z][a-z0-9-]{1,30}$ kalıbına uymalı.",
  bad_schedule: "{file}: ön bilgi 'schedule' bir cron ifadesi değil: {detail}.",
  never: "{file}: ön bilgi 'schedule' hiç çalışmıyor.",
  bad_tz: "{file}: ön bilgi 'tz' Europe/Istanbul gibi bir saat dilimi olmalı, '{value}' değil.",
  unknown_role:
    "{file}: ön bilgi 'role' '{name}' adını veriyor, ama [models.roles] içinde böyle bir rol yok.",
  positive: "{file}: ön bilgi '{key}' pozitif bir sayı olmalı.",
  one_of: "{file}: ön bilgi '{key}' şunlardan biri olmalı: {values}.",
  empty_prompt: "{file}: ön bilgi bloğundan sonraki istem boş olmamalı.",
  slash_prompt: "{file}: istem '/' ile başlamamalı; bu bir eğik çizgi komutu çalıştırırdı.",
  day_below_run: "{file}: ön bilgi 'max_usd_per_day' en az 'max_usd_per_run' ({run}) kadar olmalı.",
  opt_bad_name: "Bir görevin adı ^[a-z][a-z0-9-]{1,30}$ kalıbına uymalı, '{name}' uymuyor.",
  opt_bad_schedule: "--schedule '{value}' bir cron ifadesi değil: {detail}.",
  opt_never: "--schedule '{value}' hiç çalışmıyor.",
  opt_bad_tz: "--tz Europe/Istanbul gibi bir saat dilimi olmalı, '{value}' değil.",
  opt_unknown_role: "--role '{name}' adını veriyor, ama [models.roles] içinde böyle bir rol yok.",
  opt_positive: "--{flag} pozitif bir dolar tutarı olmalı.",
  opt_one_of: "--{flag} şunlardan biri olmalı: {values}; '{value}' değil.",
  opt_empty_prompt: "--prompt boş olmamalı.",
  opt_slash_prompt: "--prompt '/' ile başlamamalı; bu bir eğik çizgi komutu çalıştırırdı.",
  opt_day_below_run: "--max-usd-per-day en az --max-usd-per-run ({run}) kadar olmalı.",
  estimate: "Tahmini maliyet: çalışma başına {run}, günde {day} (günde {runs} çalışma).",
  estimate_unpriced: "Tahmini maliyet: bilinmiyor, {model} için agent.toml içinde fiyat yok.",
  over_ceiling:
    "'{name}' görevi eklenemiyor: bir çalışma {run} tutabilir, bu max_usd_per_run sınırı olan {cap} değerinden fazla.",
  unpriced_ceiling:
    "'{name}' görevi eklenemiyor: {model} için fiyat yok, bu yüzden max_usd_per_run uygulanamaz.",
  exists: "'{name}' görevi zaten var; önce kaldırın ya da {file} dosyasını düzenleyin.",
  no_job: "persona/jobs/ içinde '{name}' görevi yok.",
  added: "'{name}' görevi eklendi; sonraki çalışma {next}.",
  removed: "'{name}' görevi kaldırıldı.",
  paused: "'{name}' görevi duraklatıldı.",
  resumed: "'{name}' görevi sürdürülüyor.",
  paused_all: "Tüm görevler duraklatıldı; {resume} verilene dek hiçbiri çalışmaz.",
  resumed_all: "Tüm görevler sürdürülüyor.",
  resumed_all_kept:
    "Tümünü duraklatma kaldırıldı; şu görevler ayrı ayrı sürdürene dek kendi duraklatmalarıyla duraklatılmış kalıyor: {names}.",
  paused_here:
    "'{name}' görevi yalnızca bu hub'da duraklatıldı: spine yanıt vermedi ({detail}). Duraklatma bu hub'ın bir sonraki çalışmasından önce (ya da 'agent jobs list' ile) ona gönderilir; o zamana dek kimliğin öteki hub'ı görevi çalıştırabilir.",
  paused_all_here:
    "Tüm görevler yalnızca bu hub'da duraklatıldı: spine yanıt vermedi ({detail}). Duraklatma bu hub'ın bir sonraki çalışmasından önce (ya da 'agent jobs list' ile) ona gönderilir; o zamana dek kimliğin öteki hub'ı görevleri çalıştırabilir.",
  resume_unreachable:
    "'{name}' görevi sürdürülemiyor: iki hub'ın duraklatmalarını tutan spine yanıt vermedi ({detail}); görev duraklatılmış kalıyor. Spine yanıt verince yeniden deneyin.",
  resume_all_unreachable:
    "Görevler sürdürülemiyor: iki hub'ın duraklatmalarını tutan spine yanıt vermedi ({detail}); duraklatılmış kalıyorlar. Spine yanıt verince yeniden deneyin.",
  pauses_stale:
    "Spine yanıt vermedi ({detail}): gösterilen duraklatmalar bu hub'ın son bildikleri.",
  none: "Görev yok. 'agent jobs add AD --schedule İFADE --prompt METİN' bir görev ekler.",
  no_log: "Henüz çalışma yok.",
  list_when: "{name}  {when}{state}",
  list_next: "  sonraki {next}  son {last}",
  list_spent: "  bugün {today}  30 gün {month}",
  state_ok: "tamam",
  state_failed: "başarısız",
  state_missed: "kaçırıldı",
  state_refused: "reddedildi",
  state_running: "sürüyor",
  state_interrupted: "yarıda kaldı",
  state_taken: "öteki hub'da",
  state_paused: "duraklatılmış",
  reason_owner: "sizin tarafınızdan",
  reason_day: "günlük sınır",
  reason_run: "çalışma sınırı",
  reason_budget: "bütçe tükendi",
  log_missed: " (kaçırıldı)",
  list_paused: "  [duraklatıldı: {reason}]",
  delivered: "{name} görevi ({usd}):\n{text}",
  failed_told: "{name} görevi başarısız oldu: {detail}",
  ceiling_day:
    "{name} görevi duraklatıldı: bugünkü harcama {spent} ve bir çalışma daha max_usd_per_day sınırı olan {cap} değerini aşar. Günü İstanbul saatiyle 00:00'da yeniden başlar: 'agent jobs resume {name}' o andan sonra çalışmasını sağlar; bugün çalıştırmak için önce persona/jobs/{name}.md içindeki max_usd_per_day değerini yükseltin.",
  resumed_day_spent:
    "'{name}' görevi sürdürülüyor. Bugünkü harcama {spent}, max_usd_per_day sınırı olan {cap} altında bir çalışmalık bile yer bırakmıyor; görev İstanbul saatiyle 00:00'dan sonra, ya da persona/jobs/{name}.md içindeki max_usd_per_day yükseltilince daha erken yeniden çalışır.",
  paused_day:
    "{name} görevi max_usd_per_day sınırı olan {cap} yüzünden duraklatılmış: 'agent jobs resume {name}' ile sürdürülünce İstanbul saatiyle 00:00'dan sonra, ya da persona/jobs/{name}.md içindeki max_usd_per_day yükseltilip sürdürülünce bugün yeniden çalışabilir.",
  paused_owner: "{name} görevi duraklatılmış; 'agent jobs resume {name}' sürdürür.",
  paused_every: "Tüm görevler duraklatılmış; 'agent jobs resume --all' sürdürür.",
  still_running_now:
    "{name} görevi çalıştırılmadı: {since} saatinde başlayan çalışması (bu ya da başka bir süreçte) hâlâ sürüyor. Bitince yeniden deneyin.",
  ceiling_run:
    "{name} görevi duraklatıldı: bir çağrı max_usd_per_run sınırı olan {cap} değerini aşacaktı. 'agent jobs resume {name}' sürdürür.",
  budget_spent:
    "{name} görevi duraklatıldı: {role} rolünün bütçesi tükendi. 'agent jobs resume {name}' sürdürür.",
  missed_told:
    "{name} görevi hub çalışmazken {count} çalışmayı kaçırdı (sonuncusu {slot}); {what}.",
  missed_once: "şimdi bir kez çalışıyor",
  missed_skip: "bunlar atlandı",
  run_ceiling: "görevin max_usd_per_run sınırı olan {cap} aşılacaktı",
  global_paused: "Tüm görevler duraklatıldı.",
  still_running: "atlandı: önceki çalışma hâlâ sürüyordu",
  jobs_line: "görevler: {count} ({paused} duraklatılmış){all}",
  jobs_all_paused: ", hepsi duraklatılmış",
  delivery_dropped:
    "{name} görevinin yanıtı ({slot}) {target} hedefine iletilemedi: {detail}. Yanıt 'agent jobs log' içinde.",
  interrupted: "yarıda kaldı: çalışma sürerken hub durdu; yeniden çalıştırılmaz",
  interrupted_told:
    "{name} görevi yarıda kaldı: {slot} çalışması sürerken hub durdu ({usd} harcandı); yeniden çalıştırılmaz.",
  taken: "bu kimliğin öteki hub'ı çalıştırdı",
  run_cancelled: "iptal edildi: çalışma yanıt vermeden durduruldu",
  run_closed: "çalıştırılmadı: sırası gelmeden hub kapandı",
  run_no_answer: "yanıt yok: istem bir tur çalıştırmadı",
  spine_unreachable:
    "çalıştırılmadı: iki hub'ın çalışmalarını tutan spine yanıt vermedi ({detail})",
};

/** The jobs catalogue. */
export const t = catalogue(EN, TR);

/** A sentence's key in the jobs catalogue. */
export type JobKey = keyof typeof EN;

/** The templates themselves, by language: a stored sentence is read back from them. */
export const TEMPLATES: Readonly<Record<Lang, Readonly<Record<keyof typeof EN, string>>>> = {
  en: EN,
  tr: TR,
};
