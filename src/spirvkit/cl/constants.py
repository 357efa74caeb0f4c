"""OpenCL's constants under pyopencl's class names (``cl.mem_flags.READ_ONLY`` ...), with the
values of the OpenCL headers (``CL/cl.h``)."""

from __future__ import annotations


class _Constants:
    """A namespace of integer constants; ``to_string(value)`` names one, as pyopencl's do."""

    @classmethod
    def to_string(cls, value: int, default_format: str | None = None) -> str:
        for name in dir(cls):
            if not name.startswith("_") and name.isupper() and getattr(cls, name) == value:
                return name
        if default_format is not None:
            return default_format.format(value)
        raise ValueError(f"{cls.__name__}: no constant with value {value}")


class status_code(_Constants):
    SUCCESS = 0
    DEVICE_NOT_FOUND = -1
    DEVICE_NOT_AVAILABLE = -2
    COMPILER_NOT_AVAILABLE = -3
    MEM_OBJECT_ALLOCATION_FAILURE = -4
    OUT_OF_RESOURCES = -5
    OUT_OF_HOST_MEMORY = -6
    PROFILING_INFO_NOT_AVAILABLE = -7
    MEM_COPY_OVERLAP = -8
    IMAGE_FORMAT_MISMATCH = -9
    IMAGE_FORMAT_NOT_SUPPORTED = -10
    BUILD_PROGRAM_FAILURE = -11
    MAP_FAILURE = -12
    MISALIGNED_SUB_BUFFER_OFFSET = -13
    EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST = -14
    COMPILE_PROGRAM_FAILURE = -15
    LINKER_NOT_AVAILABLE = -16
    LINK_PROGRAM_FAILURE = -17
    DEVICE_PARTITION_FAILED = -18
    KERNEL_ARG_INFO_NOT_AVAILABLE = -19
    INVALID_VALUE = -30
    INVALID_DEVICE_TYPE = -31
    INVALID_PLATFORM = -32
    INVALID_DEVICE = -33
    INVALID_CONTEXT = -34
    INVALID_QUEUE_PROPERTIES = -35
    INVALID_COMMAND_QUEUE = -36
    INVALID_HOST_PTR = -37
    INVALID_MEM_OBJECT = -38
    INVALID_IMAGE_FORMAT_DESCRIPTOR = -39
    INVALID_IMAGE_SIZE = -40
    INVALID_SAMPLER = -41
    INVALID_BINARY = -42
    INVALID_BUILD_OPTIONS = -43
    INVALID_PROGRAM = -44
    INVALID_PROGRAM_EXECUTABLE = -45
    INVALID_KERNEL_NAME = -46
    INVALID_KERNEL_DEFINITION = -47
    INVALID_KERNEL = -48
    INVALID_ARG_INDEX = -49
    INVALID_ARG_VALUE = -50
    INVALID_ARG_SIZE = -51
    INVALID_KERNEL_ARGS = -52
    INVALID_WORK_DIMENSION = -53
    INVALID_WORK_GROUP_SIZE = -54
    INVALID_WORK_ITEM_SIZE = -55
    INVALID_GLOBAL_OFFSET = -56
    INVALID_EVENT_WAIT_LIST = -57
    INVALID_EVENT = -58
    INVALID_OPERATION = -59
    INVALID_BUFFER_SIZE = -61
    INVALID_GLOBAL_WORK_SIZE = -63
    INVALID_PROPERTY = -64
    INVALID_IMAGE_DESCRIPTOR = -65


class platform_info(_Constants):
    PROFILE = 0x0900
    VERSION = 0x0901
    NAME = 0x0902
    VENDOR = 0x0903
    EXTENSIONS = 0x0904
    HOST_TIMER_RESOLUTION = 0x0905
    NUMERIC_VERSION = 0x0906


class device_type(_Constants):
    DEFAULT = 1 << 0
    CPU = 1 << 1
    GPU = 1 << 2
    ACCELERATOR = 1 << 3
    CUSTOM = 1 << 4
    ALL = 0xFFFFFFFF


class device_info(_Constants):
    TYPE = 0x1000
    VENDOR_ID = 0x1001
    MAX_COMPUTE_UNITS = 0x1002
    MAX_WORK_ITEM_DIMENSIONS = 0x1003
    MAX_WORK_GROUP_SIZE = 0x1004
    MAX_WORK_ITEM_SIZES = 0x1005
    MAX_CLOCK_FREQUENCY = 0x100C
    ADDRESS_BITS = 0x100D
    MAX_MEM_ALLOC_SIZE = 0x1010
    MAX_READ_IMAGE_ARGS = 0x100E
    MAX_WRITE_IMAGE_ARGS = 0x100F
    IMAGE2D_MAX_WIDTH = 0x1011
    IMAGE2D_MAX_HEIGHT = 0x1012
    IMAGE3D_MAX_WIDTH = 0x1013
    IMAGE3D_MAX_HEIGHT = 0x1014
    IMAGE3D_MAX_DEPTH = 0x1015
    IMAGE_SUPPORT = 0x1016
    MAX_SAMPLERS = 0x1018
    MAX_PARAMETER_SIZE = 0x1017
    MEM_BASE_ADDR_ALIGN = 0x1019
    GLOBAL_MEM_SIZE = 0x101F
    MAX_CONSTANT_BUFFER_SIZE = 0x1020
    LOCAL_MEM_TYPE = 0x1022
    LOCAL_MEM_SIZE = 0x1023
    ERROR_CORRECTION_SUPPORT = 0x1024
    PROFILING_TIMER_RESOLUTION = 0x1025
    ENDIAN_LITTLE = 0x1026
    AVAILABLE = 0x1027
    COMPILER_AVAILABLE = 0x1028
    QUEUE_PROPERTIES = 0x102A
    NAME = 0x102B
    VENDOR = 0x102C
    DRIVER_VERSION = 0x102D
    PROFILE = 0x102E
    VERSION = 0x102F
    EXTENSIONS = 0x1030
    PLATFORM = 0x1031
    HOST_UNIFIED_MEMORY = 0x1035
    OPENCL_C_VERSION = 0x103D
    LINKER_AVAILABLE = 0x103E
    PREFERRED_VECTOR_WIDTH_CHAR = 0x1006
    PREFERRED_VECTOR_WIDTH_SHORT = 0x1007
    PREFERRED_VECTOR_WIDTH_INT = 0x1008
    PREFERRED_VECTOR_WIDTH_LONG = 0x1009
    PREFERRED_VECTOR_WIDTH_FLOAT = 0x100A
    PREFERRED_VECTOR_WIDTH_DOUBLE = 0x100B
    PREFERRED_VECTOR_WIDTH_HALF = 0x1034
    NATIVE_VECTOR_WIDTH_CHAR = 0x1036
    NATIVE_VECTOR_WIDTH_SHORT = 0x1037
    NATIVE_VECTOR_WIDTH_INT = 0x1038
    NATIVE_VECTOR_WIDTH_LONG = 0x1039
    NATIVE_VECTOR_WIDTH_FLOAT = 0x103A
    NATIVE_VECTOR_WIDTH_DOUBLE = 0x103B
    NATIVE_VECTOR_WIDTH_HALF = 0x103C
    IMAGE_MAX_BUFFER_SIZE = 0x1040
    IMAGE_MAX_ARRAY_SIZE = 0x1041
    MAX_GLOBAL_VARIABLE_SIZE = 0x104D
    IL_VERSION = 0x105B


class context_info(_Constants):
    REFERENCE_COUNT = 0x1080
    DEVICES = 0x1081
    PROPERTIES = 0x1082
    NUM_DEVICES = 0x1083


class command_queue_properties(_Constants):
    OUT_OF_ORDER_EXEC_MODE_ENABLE = 1 << 0
    PROFILING_ENABLE = 1 << 1
    ON_DEVICE = 1 << 2
    ON_DEVICE_DEFAULT = 1 << 3


class command_queue_info(_Constants):
    CONTEXT = 0x1090
    DEVICE = 0x1091
    REFERENCE_COUNT = 0x1092
    PROPERTIES = 0x1093


class mem_flags(_Constants):
    READ_WRITE = 1 << 0
    WRITE_ONLY = 1 << 1
    READ_ONLY = 1 << 2
    USE_HOST_PTR = 1 << 3
    ALLOC_HOST_PTR = 1 << 4
    COPY_HOST_PTR = 1 << 5
    HOST_WRITE_ONLY = 1 << 7
    HOST_READ_ONLY = 1 << 8
    HOST_NO_ACCESS = 1 << 9


class mem_info(_Constants):
    TYPE = 0x1100
    FLAGS = 0x1101
    SIZE = 0x1102
    HOST_PTR = 0x1103
    MAP_COUNT = 0x1104
    REFERENCE_COUNT = 0x1105
    CONTEXT = 0x1106
    ASSOCIATED_MEMOBJECT = 0x1107
    OFFSET = 0x1108


class mem_object_type(_Constants):
    BUFFER = 0x10F0
    IMAGE2D = 0x10F1
    IMAGE3D = 0x10F2
    IMAGE2D_ARRAY = 0x10F3
    IMAGE1D = 0x10F4
    IMAGE1D_ARRAY = 0x10F5
    IMAGE1D_BUFFER = 0x10F6


class program_info(_Constants):
    REFERENCE_COUNT = 0x1160
    CONTEXT = 0x1161
    NUM_DEVICES = 0x1162
    DEVICES = 0x1163
    SOURCE = 0x1164
    BINARY_SIZES = 0x1165
    BINARIES = 0x1166
    NUM_KERNELS = 0x1167
    KERNEL_NAMES = 0x1168
    IL = 0x1169


class program_build_info(_Constants):
    STATUS = 0x1181
    OPTIONS = 0x1182
    LOG = 0x1183
    BINARY_TYPE = 0x1184


class build_status(_Constants):
    SUCCESS = 0
    NONE = -1
    ERROR = -2
    IN_PROGRESS = -3


class kernel_info(_Constants):
    FUNCTION_NAME = 0x1190
    NUM_ARGS = 0x1191
    REFERENCE_COUNT = 0x1192
    CONTEXT = 0x1193
    PROGRAM = 0x1194
    ATTRIBUTES = 0x1195


class kernel_work_group_info(_Constants):
    WORK_GROUP_SIZE = 0x11B0
    COMPILE_WORK_GROUP_SIZE = 0x11B1
    LOCAL_MEM_SIZE = 0x11B2
    PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 0x11B3
    PRIVATE_MEM_SIZE = 0x11B4
    GLOBAL_WORK_SIZE = 0x11B5


class event_info(_Constants):
    COMMAND_QUEUE = 0x11D0
    COMMAND_TYPE = 0x11D1
    REFERENCE_COUNT = 0x11D2
    COMMAND_EXECUTION_STATUS = 0x11D3
    CONTEXT = 0x11D4


class command_execution_status(_Constants):
    COMPLETE = 0x0
    RUNNING = 0x1
    SUBMITTED = 0x2
    QUEUED = 0x3


class command_type(_Constants):
    NDRANGE_KERNEL = 0x11F0
    TASK = 0x11F1
    NATIVE_KERNEL = 0x11F2
    READ_BUFFER = 0x11F3
    WRITE_BUFFER = 0x11F4
    COPY_BUFFER = 0x11F5
    READ_IMAGE = 0x11F6
    WRITE_IMAGE = 0x11F7
    COPY_IMAGE = 0x11F8
    COPY_IMAGE_TO_BUFFER = 0x11F9
    COPY_BUFFER_TO_IMAGE = 0x11FA
    MARKER = 0x11FE
    MAP_BUFFER = 0x11FB
    MAP_IMAGE = 0x11FC
    READ_BUFFER_RECT = 0x1201
    WRITE_BUFFER_RECT = 0x1202
    COPY_BUFFER_RECT = 0x1203
    UNMAP_MEM_OBJECT = 0x11FD
    USER = 0x1204
    MIGRATE_MEM_OBJECTS = 0x1206
    FILL_BUFFER = 0x1207
    FILL_IMAGE = 0x1208
    BARRIER = 0x1205


class profiling_info(_Constants):
    QUEUED = 0x1280
    SUBMIT = 0x1281
    START = 0x1282
    END = 0x1283
    COMPLETE = 0x1284


class kernel_arg_info(_Constants):
    ADDRESS_QUALIFIER = 0x1196
    ACCESS_QUALIFIER = 0x1197
    TYPE_NAME = 0x1198
    TYPE_QUALIFIER = 0x1199
    NAME = 0x119A


class kernel_arg_address_qualifier(_Constants):
    GLOBAL = 0x119B
    LOCAL = 0x119C
    CONSTANT = 0x119D
    PRIVATE = 0x119E


class kernel_arg_access_qualifier(_Constants):
    READ_ONLY = 0x11A0
    WRITE_ONLY = 0x11A1
    READ_WRITE = 0x11A2
    NONE = 0x11A3


class map_flags(_Constants):
    READ = 1 << 0
    WRITE = 1 << 1
    WRITE_INVALIDATE_REGION = 1 << 2


class channel_order(_Constants):
    R = 0x10B0
    A = 0x10B1
    RG = 0x10B2
    RA = 0x10B3
    RGB = 0x10B4
    RGBA = 0x10B5
    BGRA = 0x10B6
    ARGB = 0x10B7
    INTENSITY = 0x10B8
    LUMINANCE = 0x10B9
    Rx = 0x10BA
    RGx = 0x10BB
    RGBx = 0x10BC
    DEPTH = 0x10BD
    DEPTH_STENCIL = 0x10BE
    sRGB = 0x10BF
    sRGBx = 0x10C0
    sRGBA = 0x10C1
    sBGRA = 0x10C2
    ABGR = 0x10C3


class channel_type(_Constants):
    SNORM_INT8 = 0x10D0
    SNORM_INT16 = 0x10D1
    UNORM_INT8 = 0x10D2
    UNORM_INT16 = 0x10D3
    UNORM_SHORT_565 = 0x10D4
    UNORM_SHORT_555 = 0x10D5
    UNORM_INT_101010 = 0x10D6
    SIGNED_INT8 = 0x10D7
    SIGNED_INT16 = 0x10D8
    SIGNED_INT32 = 0x10D9
    UNSIGNED_INT8 = 0x10DA
    UNSIGNED_INT16 = 0x10DB
    UNSIGNED_INT32 = 0x10DC
    HALF_FLOAT = 0x10DD
    FLOAT = 0x10DE
    UNORM_INT24 = 0x10DF
    UNORM_INT_101010_2 = 0x10E0


class image_info(_Constants):
    FORMAT = 0x1110
    ELEMENT_SIZE = 0x1111
    ROW_PITCH = 0x1112
    SLICE_PITCH = 0x1113
    WIDTH = 0x1114
    HEIGHT = 0x1115
    DEPTH = 0x1116
    ARRAY_SIZE = 0x1117
    BUFFER = 0x1118
    NUM_MIP_LEVELS = 0x1119
    NUM_SAMPLES = 0x111A


class addressing_mode(_Constants):
    NONE = 0x1130
    CLAMP_TO_EDGE = 0x1131
    CLAMP = 0x1132
    REPEAT = 0x1133
    MIRRORED_REPEAT = 0x1134


class filter_mode(_Constants):
    NEAREST = 0x1140
    LINEAR = 0x1141


class sampler_info(_Constants):
    REFERENCE_COUNT = 0x1150
    CONTEXT = 0x1151
    NORMALIZED_COORDS = 0x1152
    ADDRESSING_MODE = 0x1153
    FILTER_MODE = 0x1154


class kernel_arg_type_qualifier(_Constants):
    NONE = 0
    CONST = 1 << 0
    RESTRICT = 1 << 1
    VOLATILE = 1 << 2
    PIPE = 1 << 3


class device_local_mem_type(_Constants):
    LOCAL = 0x1
    GLOBAL = 0x2


class device_mem_cache_type(_Constants):
    NONE = 0x0
    READ_ONLY_CACHE = 0x1
    READ_WRITE_CACHE = 0x2


class device_exec_capabilities(_Constants):
    KERNEL = 1 << 0
    NATIVE_KERNEL = 1 << 1


class device_fp_config(_Constants):
    DENORM = 1 << 0
    INF_NAN = 1 << 1
    ROUND_TO_NEAREST = 1 << 2
    ROUND_TO_ZERO = 1 << 3
    ROUND_TO_INF = 1 << 4
    FMA = 1 << 5
    SOFT_FLOAT = 1 << 6
    CORRECTLY_ROUNDED_DIVIDE_SQRT = 1 << 7


class mem_migration_flags(_Constants):
    HOST = 1 << 0
    CONTENT_UNDEFINED = 1 << 1
