#include "dx12kit/gpu/QueueSubmitter.hpp"

#include "dx12kit/platform/FenceEvent.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <chrono>

namespace dx12kit {

QueueSubmitter::QueueSubmitter(ComPtr<ID3D12CommandQueue> queue, ComPtr<ID3D12Fence> fence, std::string name, bool mayDefer)
    : m_Queue(std::move(queue)),
      m_Fence(std::move(fence)),
      m_Waiter(std::make_unique<FenceWaiter>(m_Fence.Get())),
      m_Name(std::move(name)),
      m_MayDefer(mayDefer) {}

QueueSubmitter::~QueueSubmitter() {
    Stop();
}

uint64_t QueueSubmitter::ReadCompleted() const {
    const uint64_t v = m_Fence->GetCompletedValue();
    uint64_t seen = m_CompletedSeen.load(std::memory_order_relaxed);
    while (v > seen && !m_CompletedSeen.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {}
    return std::max(v, seen);
}

void QueueSubmitter::NoteIssued(uint64_t value) {
    uint64_t seen = m_IssuedSignal.load(std::memory_order_relaxed);
    while (value > seen && !m_IssuedSignal.compare_exchange_weak(seen, value, std::memory_order_release)) {}
}

bool QueueSubmitter::Execute(UINT count, ID3D12CommandList* const* lists, uint64_t value) {
    if (Idle()) {
        m_Queue->ExecuteCommandLists(count, lists);
        return false;
    }
    Op op{Op::kExecute};
    op.value = value;
    op.lists.reserve(count);
    // Every list dx12kit executes is a graphics command list (the only kind it creates).
    for (UINT i = 0; i < count; ++i) {
        auto* list = static_cast<ID3D12GraphicsCommandList*>(lists[i]);
        list->AddRef();  // the op's own reference (ComPtr(T*) takes one without AddRef)
        op.lists.emplace_back(list);
    }
    Enqueue(std::move(op));
    return true;
}

HRESULT QueueSubmitter::Signal(uint64_t value) {
    if (Idle()) {
        const HRESULT hr = m_Queue->Signal(m_Fence.Get(), value);
        if (SUCCEEDED(hr)) NoteIssued(value);
        return hr;
    }
    Op op{Op::kSignal};
    op.value = value;
    Enqueue(std::move(op));
    return S_OK;
}

HRESULT QueueSubmitter::Wait(const std::shared_ptr<QueueSubmitter>& other, uint64_t value, uint64_t next) {
    if (!m_MayDefer) return m_Queue->Wait(other->m_Fence.Get(), value);
    // vkd3d: never ID3D12CommandQueue::Wait (see the header). A value reached needs nothing; an
    // unreached one is the worker's, and so is every op after it.
    if (Idle() && other->ReadCompleted() >= value) return S_OK;
    Op op{Op::kWait};
    op.value = value;
    op.other = other;
    op.next = next;
    Enqueue(std::move(op));
    return S_OK;
}

HRESULT QueueSubmitter::Reissue() {
    std::lock_guard<std::mutex> lock(m_Mutex);
    const uint64_t v = m_IssuedSignal.load(std::memory_order_acquire);
    return v ? m_Queue->Signal(m_Fence.Get(), v) : S_OK;
}

void QueueSubmitter::Enqueue(Op op) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Fifo.push_back(std::move(op));
    m_Unfinished.fetch_add(1, std::memory_order_acq_rel);
    m_QueuedOps.fetch_add(1, std::memory_order_relaxed);
    if (!m_Thread.joinable()) {
        m_Stop = false;
        m_Thread = std::thread([this] { Work(); });
    }
    m_Work.notify_one();
}

void QueueSubmitter::TakeSubmittedLists(std::vector<ComPtr<ID3D12GraphicsCommandList>>& pool) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (auto& l : m_Handback) pool.push_back(std::move(l));
    m_Handback.clear();
    m_HasHandback.store(false, std::memory_order_release);
}

QueueSubmitter::Failure QueueSubmitter::FirstFailure() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Failure;
}

bool QueueSubmitter::TakeFailure(uint64_t upTo, Failure& out) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (!m_Failed.load(std::memory_order_relaxed) || m_Failure.value > upTo) return false;
    out = std::move(m_Failure);
    m_Failure = Failure{};
    m_Failed.store(false, std::memory_order_release);
    return true;
}

void QueueSubmitter::FailNextQueuedOp(HRESULT hr) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_InjectFailure = hr;
}

void QueueSubmitter::Fail(HRESULT hr, uint64_t value, std::string what) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (m_Failed.load(std::memory_order_relaxed)) return;  // the first failure is the one reported
    m_Failure.hr = hr;
    m_Failure.value = value;
    m_Failure.what = std::move(what);
    m_Failed.store(true, std::memory_order_release);
}

namespace {
std::string Describe(int kind, uint64_t value, const std::string& otherName, uint64_t next) {
    switch (kind) {
        case 0: return "ExecuteCommandLists of fence value " + std::to_string(value);
        case 1: return "Signal of fence value " + std::to_string(value);
        default:
            return "GPU wait for queue '" + otherName + "' to reach fence value " + std::to_string(value) + " (before this queue's fence value " +
                   std::to_string(next) + ")";
    }
}
}  // namespace

void QueueSubmitter::WaitOnCpu(QueueSubmitter& other, uint64_t value) {
    // The GPU wait vkd3d would do by blocking inside vkQueueSubmit, done here without any backend
    // lock. A value vkd3d's fence loses (CommandQueue.hpp) is re-signalled by the callers' stall
    // checks (CommandQueue::HealIfStalled), which every wait, poll and command_list() runs.
    while (other.ReadCompleted() < value) {
        if (other.Failed()) {
            const Failure f = other.FirstFailure();
            if (f.value <= value) throw DeviceError("queue '" + other.m_Name + "' failed earlier (" + f.what + ")", f.hr, HResultName(f.hr));
        }
        other.Waiter().WaitFor(value, 50);
    }
}

void QueueSubmitter::RunOp(Op& op) {
    HRESULT inject = S_OK;
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        std::swap(inject, m_InjectFailure);
    }
    const uint64_t errorValue = op.kind == Op::kWait ? op.next : op.value;
    const std::string otherName = op.other ? op.other->m_Name : std::string();
    if (FAILED(inject)) {
        Fail(inject, errorValue, Describe(op.kind, op.value, otherName, op.next));
        return;
    }
    try {
        switch (op.kind) {
            case Op::kExecute: {
                ID3D12CommandList* raw[16];
                std::vector<ID3D12CommandList*> many;
                ID3D12CommandList** lists = raw;
                if (op.lists.size() > 16) {
                    many.resize(op.lists.size());
                    lists = many.data();
                }
                for (size_t i = 0; i < op.lists.size(); ++i) lists[i] = op.lists[i].Get();
                m_Queue->ExecuteCommandLists(static_cast<UINT>(op.lists.size()), lists);
                break;
            }
            case Op::kSignal: {
                // Under the FIFO mutex: Reissue() (another thread's stall cure) never lands between.
                std::lock_guard<std::mutex> lock(m_Mutex);
                const HRESULT hr = m_Queue->Signal(m_Fence.Get(), op.value);
                if (FAILED(hr)) {
                    if (!m_Failed.load(std::memory_order_relaxed)) {
                        m_Failure = {hr, op.value, Describe(op.kind, op.value, otherName, op.next)};
                        m_Failed.store(true, std::memory_order_release);
                    }
                } else {
                    NoteIssued(op.value);
                }
                break;
            }
            case Op::kWait:
                m_WorkerWaits.fetch_add(1, std::memory_order_relaxed);
                WaitOnCpu(*op.other, op.value);
                break;
        }
    } catch (const Error& e) {
        Fail(E_FAIL, errorValue, Describe(op.kind, op.value, otherName, op.next) + ": " + e.what());
    } catch (const std::exception& e) {
        Fail(E_FAIL, errorValue, Describe(op.kind, op.value, otherName, op.next) + ": " + e.what());
    }
}

void QueueSubmitter::Work() {
    std::unique_lock<std::mutex> lock(m_Mutex);
    for (;;) {
        m_Work.wait(lock, [this] { return !m_Fifo.empty() || m_Stop; });
        if (m_Fifo.empty()) return;  // stopped, everything issued
        Op op = std::move(m_Fifo.front());
        m_Fifo.pop_front();
        lock.unlock();
        RunOp(op);
        op.other.reset();
        lock.lock();
        if (!op.lists.empty()) {
            for (auto& l : op.lists) m_Handback.push_back(std::move(l));
            m_HasHandback.store(true, std::memory_order_release);
        }
        // Decremented only once the op is issued: a caller that sees the queue idle issues after it.
        if (m_Unfinished.fetch_sub(1, std::memory_order_acq_rel) == 1) m_Drained.notify_all();
    }
}

void QueueSubmitter::Stop() {
    std::unique_lock<std::mutex> lock(m_Mutex);
    if (!m_Thread.joinable()) return;
    m_Drained.wait(lock, [this] { return m_Unfinished.load(std::memory_order_acquire) == 0; });
    m_Stop = true;
    m_Work.notify_all();
    lock.unlock();
    m_Thread.join();
}

void QueueSubmitter::Abandon(const std::shared_ptr<QueueSubmitter>& self) {
    (void)new std::shared_ptr<QueueSubmitter>(self);  // never freed: the worker may still run
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (m_Thread.joinable()) m_Thread.detach();
}

}  // namespace dx12kit
