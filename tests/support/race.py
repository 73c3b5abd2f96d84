"""Writers at the same moment: each job in its thread, all released together."""

import threading


def race(*jobs):
    """Run the jobs at the same moment, each in its thread; their results (or errors)."""
    start, results = threading.Barrier(len(jobs)), [None] * len(jobs)

    def run(index, job):
        start.wait()
        try:
            results[index] = job()
        except Exception as error:  # what a writer ran into: a refusal, or a bug
            results[index] = error

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results
