"""
DXBC validation and reflection (device-free; see dx12kit.Shader.bindings).
"""
from __future__ import annotations
import typing
class CbufferVariable:
    """
    A variable of a constant buffer (or a member of a struct variable), with its place in the buffer (HLSL packing).
    """
    def __repr__(self) -> str:
        ...
    @property
    def base_type(self) -> str:
        """
        'float', 'int', 'uint', 'bool', 'double' ('void' for structs).
        """
    @property
    def columns(self) -> int:
        """
        Columns (vector components).
        """
    @property
    def elements(self) -> int:
        """
        Array length; 0 when not an array.
        """
    @property
    def members(self) -> list[CbufferVariable]:
        """
        Struct members (CbufferVariable), in declaration order.
        """
    @property
    def name(self) -> str:
        """
        The HLSL name.
        """
    @property
    def offset(self) -> int:
        """
        Bytes from the start of the cbuffer (struct members: of the struct).
        """
    @property
    def rows(self) -> int:
        """
        Rows (1 for scalars and vectors).
        """
    @property
    def size(self) -> int:
        """
        Bytes the variable spans (0 for struct members: compute from the type).
        """
    @property
    def type_class(self) -> str:
        """
        'scalar', 'vector', 'matrix_rows' (row_major), 'matrix_columns' (column_major) or 'struct'.
        """
    @property
    def used(self) -> bool:
        """
        Whether the program reads it.
        """
class ShaderBinding:
    """
    A resource a shader binds: a constant buffer, texture, buffer, UAV or sampler.
    """
    def __repr__(self) -> str:
        ...
    @property
    def cbuffer_size(self) -> int:
        """
        Constant buffers: declared size in bytes.
        """
    @property
    def cbuffer_used_bytes(self) -> int:
        """
        Constant buffers: one past the last byte the shader reads.
        """
    @property
    def count(self) -> int:
        """
        Registers used (array size); 0 for an unbounded array.
        """
    @property
    def dimension(self) -> int:
        """
        D3D_SRV_DIMENSION value (1 buffer, 4 texture2d, ...; 0 when not a view).
        """
    @property
    def input_type(self) -> int:
        """
        D3D_SHADER_INPUT_TYPE value.
        """
    @property
    def kind(self) -> str:
        """
        'cbv', 'srv', 'uav' or 'sampler'.
        """
    @property
    def name(self) -> str:
        """
        The HLSL name (the cbuffer's name for constant buffers).
        """
    @property
    def register(self) -> int:
        """
        The first register (t3 -> 3).
        """
    @property
    def register_name(self) -> str:
        """
        As error messages write it: 't3 space0'.
        """
    @property
    def return_type(self) -> int:
        """
        D3D_RESOURCE_RETURN_TYPE value (5 float, 4 uint, ...; 0 if none).
        """
    @property
    def root_descriptor_ok(self) -> bool:
        """
        True when D3D12 allows it as a root CBV/SRV/UAV (constant, raw or structured buffers).
        """
    @property
    def space(self) -> int:
        """
        The register space.
        """
    @property
    def type(self) -> str:
        """
        The HLSL type: 'cbuffer', 'Texture2D', 'StructuredBuffer', ...
        """
    @property
    def variables(self) -> list[CbufferVariable]:
        """
        Constant buffers: their variables (CbufferVariable), in declaration order.
        """
class SignatureElement:
    """
    One element of a shader's input or output signature.
    """
    def __repr__(self) -> str:
        ...
    @property
    def component_type(self) -> str:
        """
        'float32', 'uint32', 'int32' or 'unknown'.
        """
    @property
    def mask(self) -> str:
        """
        Components present, e.g. 'xyzw'.
        """
    @property
    def register(self) -> int:
        """
        The v#/o# register.
        """
    @property
    def semantic(self) -> str:
        """
        Semantic name as written (TEXCOORD, SV_Position, SV_Target).
        """
    @property
    def semantic_index(self) -> int:
        ...
    @property
    def stream(self) -> int:
        ...
    @property
    def system_value(self) -> int:
        """
        D3D_NAME value (0 none, 1 position, 64 target, ...).
        """
    @property
    def used_mask(self) -> str:
        """
        Inputs: components read; outputs: components never written.
        """
class ShaderReflection:
    """
    What a DXBC container declares: stage, bindings, signatures, numthreads.
    """
    def __repr__(self) -> str:
        ...
    @property
    def bindings(self) -> list[ShaderBinding]:
        ...
    @property
    def creator(self) -> str:
        """
        The compiler's name as stored in the bytecode.
        """
    @property
    def inputs(self) -> list[SignatureElement]:
        ...
    @property
    def numthreads(self) -> tuple[int, int, int]:
        """
        (x, y, z) of [numthreads] for compute shaders; (0, 0, 0) otherwise.
        """
    @property
    def outputs(self) -> list[SignatureElement]:
        ...
    @property
    def patch_constants(self) -> list[SignatureElement]:
        ...
    @property
    def profile(self) -> str:
        """
        For example 'cs_5_0'.
        """
    @property
    def stage(self) -> str:
        """
        'vertex', 'pixel', 'compute', ...
        """
def dxbc_checksum(bytecode: typing.Any) -> bytes:
    """
    The DXBC checksum of a container (16 bytes), as stored at bytes 4..20 of a valid one.
    """
def dxbc_problem(bytecode: typing.Any, checksum: bool = True) -> str:
    """
    What is wrong with a DXBC container ('' when nothing): magic, size, chunks, checksum.
    """
def fix_folded_float_modifiers(bytecode: typing.Any) -> tuple[bytes, list[typing.Any]]:
    """
    The bytecode with float negate/abs modifiers that vkd3d-shader folded into operands not read as floats (stores,
    atomics, integer instructions, addresses, conditions) moved into float movs (dx12kit/shaders/DxbcModifierFix.hpp),
    as pipeline creation does on every platform. Returns (bytecode, names of the instructions fixed).
    
    Raises:
        InvalidArgumentError: malformed, or a modifier that can be neither fixed nor run right.
    """
def reflect_dxbc(bytecode: typing.Any) -> ShaderReflection:
    """
    Validates a DXBC container (size, chunk table, checksum) and reflects it.
    
    Raises:
        InvalidArgumentError: the container is malformed, naming what is wrong.
        TypeError: not bytes-like.
    """
def rewrite_dxbc_for_vkd3d(bytecode: typing.Any) -> tuple[bytes, dict[str, typing.Any]]:
    """
    The bytecode as pipeline creation hands it to vkd3d: ftoi/ftou and firstbit_hi/shi replaced by sequences that
    vkd3d 1.2 computes by D3D's rules, and partial movs with an identity swizzle (which vkd3d 1.2 turns into a
    copy of the whole register) given a swizzle it translates right (dx12kit/shaders/DxbcRewrite.hpp). Returns
    (bytecode, counts of changed instructions by kind); the bytecode is the input unchanged when nothing changed.
    """
